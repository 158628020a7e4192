"""Provision labels run in order: in each list of a section's provisions, the first label is the first of its
style ((a), (1), (i), (A), (I)) and each next label follows the one before it ((c) after (b)), unless an
``elided: true`` entry (printed ``* * * * *``) stands between them for paragraphs not restated. A list out of
order is printed so by `rulespec text render` and cannot be read back by `rulespec text parse`, nor matched
provision by provision by `rulespec diff`; validate warns, at the label, naming the label it expected."""
from __future__ import annotations

from typing import Callable, Iterable

from compiler.lang.citations import is_first_label, label_styles, next_label


def _styles_continuing(prev: str | None, label: str, styles: Iterable[str]) -> list[str]:
    """The styles in which ``label`` follows ``prev`` (None: it opens the list)."""
    if prev is None:
        return [s for s in styles if is_first_label(label, s)]
    return [s for s in styles if next_label(prev, s) == label]


def label_order(provisions: list, warn: Callable[[str, str], None]) -> None:
    """``warn(pointer, message)`` for each label out of order in the provisions of a rulespec."""
    for i, sec in enumerate(provisions or ()):
        if isinstance(sec, dict):
            _list(sec.get("children"), f"/provisions/{i}/children", f"§ {sec.get('section')}", warn)


def _list(items, ptr: str, where: str, warn) -> None:
    if not isinstance(items, list):
        return
    prev: str | None = None
    styles: list[str] | None = None  # the styles the labels so far may be read in
    gap = False  # an elided entry since the last label
    for k, it in enumerate(items):
        if not isinstance(it, dict):
            continue
        if it.get("elided") is True:
            gap = True
            continue
        label = str(it.get("label", ""))
        if not label:
            continue
        here = f"{ptr}/{k}"
        cand = label_styles(label) if styles is None else [s for s in styles if s in label_styles(label)]
        fits = cand if gap else _styles_continuing(prev, label, cand)
        if not fits:
            want = [next_label(prev, s) for s in (styles or ()) if next_label(prev, s)] if prev else \
                ["a", "1", "i", "A", "I"]
            after = f"after ({prev})" if prev else "to open the list"
            warn(f"{here}/label", f"provision label ({label}) in {where} is out of order: expected "
                 + " or ".join(f"({w})" for w in dict.fromkeys(want)) + f" {after}; put the paragraphs in the order "
                 "of their labels, or an entry 'elided: true' where paragraphs are not restated")
            fits = cand or list(label_styles(label))
        styles, prev, gap = fits, label, False
        _list(it.get("children"), f"{here}/children", f"{where}({label})", warn)

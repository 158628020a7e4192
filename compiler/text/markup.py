"""Bulletin amendment markup read back: deletions in brackets (bold in print), additions
in bold.  From HTML (``<b>[deleted]</b>``, ``<b>added</b>``), from this tool's own
text form (``**[deleted]**``, ``**added**``), or from a text capture of a Bulletin page,
where the bold is lost and only the brackets of the deletions remain."""
from __future__ import annotations

import html as _html
import re
from dataclasses import dataclass

# **[deleted]**  |  [deleted] (a capture: bold lost)  |  **added**
_TOKEN_RE = re.compile(r"\*\*\[(?P<del1>.*?)\]\*\*|\*\*(?P<add>.*?)\*\*|\[(?P<del2>[^\[\]]*)\]")
# editorial brackets that are not deletions
_EDITORIAL_RE = re.compile(r"^(?:Reserved|Continued\b.*|Pa\.B\. Doc\..*|\d+ Pa\.B\. \d+)$")


@dataclass(frozen=True)
class Versions:
    old: str
    new: str
    deleted: tuple[str, ...]
    added: tuple[str, ...]
    bold_known: bool     # False for a text capture: additions cannot be told from kept text

    @property
    def marked(self) -> bool:
        return bool(self.deleted or self.added)


def read_markup(text: str) -> Versions:
    """The text before and after an amendment printed with Bulletin markup."""
    old, new, deleted, added = [], [], [], []
    bold = "**" in text
    pos = 0
    for m in _TOKEN_RE.finditer(text):
        d = m.group("del1") if m.group("del1") is not None else m.group("del2")
        if d is not None and m.group("del2") is not None and _EDITORIAL_RE.match(d.strip()):
            continue
        old.append(text[pos:m.start()])
        new.append(text[pos:m.start()])
        if d is not None:
            old.append(d)
            deleted.append(d.strip())
        else:
            new.append(m.group("add"))
            added.append(m.group("add").strip())
        pos = m.end()
    old.append(text[pos:])
    new.append(text[pos:])

    def tidy(s: str) -> str:
        return re.sub(r"\s{2,}", " ", "".join(s)).strip()

    return Versions(tidy(old), tidy(new), tuple(deleted), tuple(added), bold)


def html_to_text(html: str) -> str:
    """An HTML page as text lines, with ``<b>`` kept as ``**`` so that additions and
    deletions survive (``<b>[x]</b>`` -> ``**[x]**``)."""
    s = re.sub(r"(?is)<(script|style)\b.*?</\1>", "", html)
    s = re.sub(r"(?i)<\s*(?:b|strong)\b[^>]*>", "**", s)
    s = re.sub(r"(?i)<\s*/\s*(?:b|strong)\s*>", "**", s)
    s = re.sub(r"(?i)<\s*br\s*/?>", "\n", s)
    s = re.sub(r"(?i)</\s*(?:p|div|tr|h\d|li|table)\s*>", "\n", s)
    s = re.sub(r"(?i)</\s*t[dh]\s*>", " ", s)
    s = re.sub(r"<[^>]+>", "", s)
    s = _html.unescape(s)
    lines = [re.sub(r"[ \t]+", " ", ln).strip() for ln in s.split("\n")]
    out = "\n".join(ln for ln in lines if ln)
    return out.replace("** **", " ").replace("****", "") + "\n"

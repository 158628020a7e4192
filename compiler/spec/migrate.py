"""``rulespec migrate``: an older rulespec rewritten into the current format, as text edits.

The format's changes are data (``schemas/format-changes.yaml``: what changed, since which commit,
why, and the generic rule that rewrites it); the rules are in :mod:`compiler.spec.migrations` (and,
for the facts lint, :mod:`compiler.lint.untie`). Each rule looks at the loaded document and the
YAML node tree the loader composes, and returns :class:`Edit` s of the source text at those nodes'
positions (insertions after a member, an item appended to a list, a member removed), so comments,
quoting and layout are kept: nothing is re-dumped. The rules run in order, each on the text the
previous ones left, and every :class:`Note` is mapped back to its line and column in the file as
it was.

:func:`migrate_text` returns the migrated text and the notes (or the loader's diagnostics for a
file that does not load); :func:`write_atomically` replaces a file through a temporary file in
its directory (``os.replace``), so a file is either the old text or the new one, never half.
"""
from __future__ import annotations

import difflib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol, Sequence

import yaml

from .diagnostics import Diagnostic, DiagnosticError, error_dicts, parse_pointer
from .limits import MAX_FILE_BYTES
from .loader import Document, load_document, parse_document
from .reading import AliasRef, _line_col_of_index, check_size, read_text

__all__ = ["Edit", "Note", "Rule", "Outcome", "migrate_text", "write_atomically", "unified_diff",
           "node_at", "insert_member", "append_items", "remove_members", "yaml_scalar", "offset_of",
           "content_end", "Change", "load_changes"]

CHANGES_PATH = Path(__file__).resolve().parents[2] / "schemas" / "format-changes.yaml"


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` with ``text`` (an insertion when ``start == end``)."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Note:
    """What a rule changed, at a place of the text the rule was given (1-based line and column)."""

    line: int
    col: int
    pointer: str
    message: str


@dataclass(frozen=True)
class Change:
    """One format change of ``schemas/format-changes.yaml``: its id, the commit it came with, why,
    the generic rule that migrates it and that rule's parameters."""

    id: str
    since: str
    why: str
    rule: str
    params: dict = field(default_factory=dict)


class Rule(Protocol):
    change: Change

    def apply(self, doc: Document, root: Any) -> tuple[list[Edit], list[Note]]: ...


@dataclass
class Outcome:
    path: str
    original: str
    text: str
    notes: list[Diagnostic]
    errors: list[Diagnostic]

    @property
    def changed(self) -> bool:
        return self.text != self.original


def load_changes(path: Path = CHANGES_PATH) -> list[Change]:
    """The format's changes, oldest first (``schemas/format-changes.yaml``)."""
    doc = load_document(str(path))
    out = []
    for c in doc.data.get("changes") or ():
        params = {k: v for k, v in c.items() if k not in ("id", "since", "why", "rule")}
        out.append(Change(c["id"], str(c["since"]), " ".join(str(c["why"]).split()), c["rule"], params))
    return out


# --------------------------------------------------------------------------- nodes and text


def node_at(root: Any, pointer: str) -> tuple[Any, Any]:
    """(value node, key node or None) at a JSON pointer of the composed tree."""
    node, key = root, None
    for tok in parse_pointer(pointer):
        if isinstance(node, AliasRef):
            node = node.node
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == tok:
                    node, key = v, k
                    break
            else:
                raise KeyError(pointer)
        elif isinstance(node, yaml.SequenceNode):
            node, key = node.value[int(tok)], None
        else:
            raise KeyError(pointer)
    return node, key


def _flow(node: Any) -> bool:
    return bool(getattr(node, "flow_style", False))


def content_end(text: str, node: Any) -> int:
    """Offset just after the node's last character of content (trailing line breaks excluded)."""
    if isinstance(node, AliasRef):
        return node.start_mark.index + 1 + len(node.anchor)
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not _flow(node) and node.value:
        last = node.value[-1]
        return content_end(text, last[1] if isinstance(node, yaml.MappingNode) else last)
    e = node.end_mark.index
    if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
        while e > node.start_mark.index and text[e - 1] in " \t\r\n\x85\u2028\u2029":
            e -= 1
    return e


def _line_end(text: str, i: int) -> int:
    while i < len(text) and text[i] not in "\r\n\x85\u2028\u2029":
        i += 1
    return i


def _line_start(text: str, i: int) -> int:
    while i > 0 and text[i - 1] not in "\r\n\x85\u2028\u2029":
        i -= 1
    return i


def newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def offset_of(text: str, line: int, col: int) -> int:
    """Character offset of 1-based (line, col) in *text* (YAML line breaks)."""
    i, n = 0, 1
    while n < line and i < len(text):
        if text[i] == "\r" and text[i + 1:i + 2] == "\n":
            i += 1
        if text[i] in "\r\n\x85\u2028\u2029":
            n += 1
        i += 1
    return i + col - 1


def yaml_scalar(value: Any) -> str:
    """A YAML scalar for *value*: plain when it reads back as the same string, else double-quoted."""
    if isinstance(value, str):
        try:
            plain = (yaml.safe_load(value) == value and "#" not in value and ": " not in value
                     and value == value.strip() and not any(c in value for c in ",[]{}"))  # also inside {...}
        except yaml.YAMLError:
            plain = False
        return value if plain and value and value[0] not in "!&*[]{},|>'\"%@`-?:" else json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


def insert_member(text: str, mapping: Any, key: str, value: str, after: str | None = None) -> Edit:
    """An edit adding ``key: value`` to *mapping* after the member *after* (default: the last).
    *value* is YAML text for one line (a scalar or a flow collection)."""
    members = mapping.value
    idx = len(members) - 1
    if after is not None:
        idx = next((i for i, (k, _) in enumerate(members) if getattr(k, "value", None) == after), idx)
    if _flow(mapping) or not members:
        if not members:
            pos = mapping.start_mark.index + 1
            return Edit(pos, pos, f"{key}: {value}")
        pos = content_end(text, members[idx][1])
        return Edit(pos, pos, f", {key}: {value}")
    indent = members[0][0].start_mark.column
    pos = _line_end(text, content_end(text, members[idx][1]) - 1)
    return Edit(pos, pos, f"{newline(text)}{' ' * indent}{key}: {value}")


def append_items(text: str, seq: Any, items: Sequence[str]) -> Edit:
    """An edit appending ``- item`` for each of *items* (one line of YAML each) to the sequence *seq*."""
    if _flow(seq) or not seq.value:
        if not seq.value:
            pos = seq.start_mark.index + 1
            return Edit(pos, pos, ", ".join(items))
        pos = content_end(text, seq.value[-1])
        return Edit(pos, pos, "".join(f", {it}" for it in items))
    dash = seq.start_mark.column
    pos = _line_end(text, content_end(text, seq.value[-1]) - 1)
    return Edit(pos, pos, "".join(f"{newline(text)}{' ' * dash}- {it}" for it in items))


def remove_members(text: str, mapping: Any, keys: Sequence[str]) -> list[Edit]:
    """Edits removing the members *keys* of *mapping*: a block member with its line (when it has one
    to itself); a flow mapping rewritten as its other members, each as written."""
    members = mapping.value
    gone = [i for i, (k, _) in enumerate(members) if getattr(k, "value", None) in keys]
    if not gone:
        return []
    if _flow(mapping):
        kept = [text[k.start_mark.index:content_end(text, v)] for i, (k, v) in enumerate(members) if i not in gone]
        return [Edit(mapping.start_mark.index, mapping.end_mark.index, "{" + ", ".join(kept) + "}")]
    edits: list[Edit] = []
    nl = newline(text)
    for i in gone:
        k, v = members[i]
        end = content_end(text, v)
        if not text[_line_start(text, k.start_mark.index):k.start_mark.index].strip():
            stop = _line_end(text, end - 1)
            stop += len(nl) if text.startswith(nl, stop) else (1 if stop < len(text) else 0)
            edits.append(Edit(_line_start(text, k.start_mark.index), stop, ""))
        elif i + 1 < len(members) and i + 1 not in gone:  # first of a list item ('- face: up'): the next moves up
            edits.append(Edit(k.start_mark.index, members[i + 1][0].start_mark.index, ""))
        elif len(gone) == len(members):
            edits.append(Edit(k.start_mark.index, end, "{}"))
        else:  # first of a list item whose next member goes too: the first kept one moves up
            nxt = next(j for j in range(i + 1, len(members)) if j not in gone)
            return [e for e in edits] + [Edit(k.start_mark.index, members[nxt][0].start_mark.index, "")] + [
                e for j in gone if j > nxt for e in remove_members(text, mapping, [members[j][0].value])]
    return edits


def steps_of(data: Any, ptr: str = "/procedure") -> Iterator[tuple[str, dict]]:
    """Every procedure step (blocks' steps included): (pointer, step)."""
    for i, s in enumerate(data if isinstance(data, list) else ()):
        if isinstance(s, dict):
            yield f"{ptr}/{i}", s
            yield from steps_of(s.get("steps"), f"{ptr}/{i}/steps")


# --------------------------------------------------------------------------- applying


def _apply(text: str, edits: Sequence[Edit]) -> str:
    out, last = [], 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if e.start < last:
            raise ValueError(f"overlapping edits at offset {e.start}")
        out += [text[last:e.start], e.text]
        last = e.end
    return "".join(out) + text[last:]


def _back(offset: int, batches: list[list[Edit]]) -> int:
    """An offset of the text after *batches* of edits, in the text before them."""
    for edits in reversed(batches):
        delta = 0
        for e in sorted(edits, key=lambda e: (e.start, e.end)):
            new_start = e.start + delta
            if offset < new_start:
                break
            if offset < new_start + len(e.text):
                offset = e.start + delta
                break
            delta += len(e.text) - (e.end - e.start)
        offset -= delta
    return offset


def _load(path: str, text: str) -> tuple[Document, Any]:
    """The loader's document and the node tree it was converted from (one parse)."""
    return parse_document(path, text)


def migrate_text(path: str, text: str, rules: Sequence[Rule]) -> Outcome:
    """Every rule in turn on *text*; the notes positioned in *text* as given."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom):]
    try:
        if len(body.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
            check_size(path, MAX_FILE_BYTES + 1)
    except DiagnosticError as e:
        return Outcome(path, text, text, [], list(e.diagnostics))
    current, batches, notes, loaded = body, [], [], None
    for rule in rules:
        try:
            if loaded is None:
                loaded = _load(path, current)
            doc, root = loaded
        except DiagnosticError as e:
            if not batches:
                return Outcome(path, text, text, [], list(e.diagnostics))
            return Outcome(path, text, text, [], [Diagnostic(  # pragma: no cover - a rule's edits do not load
                path, 1, 1, "error", f"format change {rule.change.id!r}: the text migrated so far does not load "
                                     f"({e.diagnostics[0].message}); nothing is changed", "")])
        try:
            edits, found = rule.apply(doc, root)
            migrated = _apply(current, edits) if edits else current
        except Exception as e:  # a document far from any rulespec: an error, never a traceback
            return Outcome(path, text, text, [], [Diagnostic(
                path, 1, 1, "error", f"format change {rule.change.id!r} cannot be applied: this does not read as a "
                                     f"rulespec ({type(e).__name__}); run 'rulespec validate' on it", "")])
        for n in found:
            off = _back(offset_of(current, n.line, n.col), batches)
            line, col = _line_col_of_index(body, off)
            notes.append(Diagnostic(path, line, col, "note", f"{n.message} ({rule.change.id}, since {rule.change.since})",
                                    n.pointer))
        if edits:
            current = migrated
            batches.append(list(edits))
            loaded = None
    notes.sort(key=lambda d: (d.line, d.col))
    return Outcome(path, text, bom + current, notes, [])


def unified_diff(outcome: Outcome) -> str:
    return "".join(difflib.unified_diff(outcome.original.splitlines(keepends=True),
                                        outcome.text.splitlines(keepends=True),
                                        fromfile=outcome.path, tofile=f"{outcome.path} (migrated)"))


def write_atomically(path: str, text: str) -> None:
    """Replace *path* with *text* through a temporary file in its directory: all or nothing."""
    target = Path(os.path.realpath(path))  # a symbolic link keeps pointing at the migrated file
    mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".migrate", dir=str(target.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def run(paths: Sequence[str], rules: Sequence[Rule], *, write: bool, fmt: str, out, err,
        replace: Callable[[str, str], None] = write_atomically) -> int:
    """The command: every file migrated in memory first; with *write* the changed ones replaced
    (none when any file has an error)."""
    outcomes = []
    for p in paths:
        try:
            text = read_text(p)
        except DiagnosticError as e:  # missing, a directory, not UTF-8: the loader's positioned message
            outcomes.append(Outcome(p, "", "", [], list(e.diagnostics)))
            continue
        outcomes.append(migrate_text(p, text, rules))
    errors = [d for o in outcomes for d in o.errors]
    written = []
    if write and not errors:
        for o in outcomes:
            if o.changed:
                replace(o.path, o.text)
                written.append(o.path)
    if fmt == "json":
        print(json.dumps({"ok": not errors, "written": written, "errors": error_dicts(errors),
                          "diagnostics": [d.to_dict() for d in errors],
                          "files": [{"path": o.path, "changed": o.changed, "notes": [d.to_dict() for d in o.notes],
                                     "diff": unified_diff(o)} for o in outcomes]},
                         indent=2, ensure_ascii=False), file=out)
        return 1 if errors else 0
    for d in errors:
        print(d.format(), file=err)
    for o in outcomes:
        for d in o.notes:
            print(d.format(), file=out)
        if o.changed and not write:
            print(unified_diff(o), end="", file=out)
    n = sum(o.changed for o in outcomes)
    if errors:
        print(f"nothing written: {len(errors)} error{'s' if len(errors) != 1 else ''}", file=err)
    elif write:
        print(f"{len(written)} rulespec{'s' if len(written) != 1 else ''} migrated", file=err)
    else:
        print(f"{n} rulespec{'s' if n != 1 else ''} to migrate" + (" (--write to write them)" if n else "")
              + f", {len(outcomes) - n} current", file=err)
    return 1 if errors else 0

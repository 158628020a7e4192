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
_EDITORIAL_RE = re.compile(r"^(?:Reserved|Continued\b.*|Pa\.B\. Doc\..*|\d+ Pa\.B\. \d+|"
                           r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, .*|\d+ PA\. ?CODE.*)$", re.I)


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
    return out.replace("****", "") + "\n"


# A provision line whose label carries markup: renumbered "**[(c)]** **(b)** ...", added
# "**(3) ...**", deleted "**[(b) ...]**" (or "[(b) ...]" in a capture).
_LAB = r"\((?:[A-Za-z]{1,5}|\d{1,3})\)"
_RENUMBERED_RE = re.compile(rf"^(\s*)(?:\*\*)?\[({_LAB})\](?:\*\*)?\s+(?:\*\*)?({_LAB})(?:\*\*)?\s+(.*)$")
_ADDED_RE = re.compile(rf"^(\s*)\*\*({_LAB}\s.*?)\*\*\s*$")
_DELETED_RE = re.compile(rf"^(\s*)(?:\*\*)?\[({_LAB}\s.*?)\](?:\*\*)?\s*$")
_BOLD_HEADING_RE = re.compile(r"^(\s*)\*\*((?:§\s+\d+[a-z]?\.\d+[a-z]?\.\s[^\[\]]*|CHAPTER \d+[a-z]?\.\s[^\[\]]*|"
                              r"Sec\.|Subchapter [A-Z]+\.\s[^\[\]]*|Annex [A-Z]\b[^\[\]]*|TITLE \d+\.?\s[^\[\]]*))\*\*\s*$")
_ADDED_SECTION_RE = re.compile(r"^(\s*)\*\*(§\s+\d+[a-z]?\.\d+[a-z]?\.\s.*?)\*\*\s*$")
_DELETED_SECTION_RE = re.compile(r"^(\s*)(?:\*\*)?\[(§\s+\d+[a-z]?\.\d+[a-z]?\.\s.*?)\](?:\*\*)?\s*$")


def has_markup(text: str) -> bool:
    """Amendment markup: bold (``**``) anywhere, or brackets on a Bulletin page's Annex."""
    if re.search(r"\*\*[^*\n]+\*\*", text):
        return True
    annex = re.search(r"^\s*Annex [A-Z]\b", text, re.M)
    if annex is None:
        return False
    for m in re.finditer(r"\[([^\[\]\n]*)\]", text[annex.start():]):
        if not _EDITORIAL_RE.match(m.group(1).strip()) and not re.match(r"(?:\w+day), ", m.group(1)):
            return True
    return False


def versions(text: str) -> tuple[str, str]:
    """The page as it read before the amendment and as it reads after, line for line (a
    line that one version does not have is left empty, so positions stay those of the page)."""
    old_lines, new_lines = [], []
    for line in text.split("\n"):
        h = _BOLD_HEADING_RE.match(line)
        if h:
            # a heading printed in bold is formatting, not an addition
            old_lines.append(h.group(1) + h.group(2))
            new_lines.append(h.group(1) + h.group(2))
            continue
        m = _RENUMBERED_RE.match(line)
        if m:
            v = read_markup(m.group(4))
            old_lines.append(f"{m.group(1)}{m.group(2)} {v.old}")
            new_lines.append(f"{m.group(1)}{m.group(3)} {v.new}")
            continue
        m = _ADDED_RE.match(line) or _ADDED_SECTION_RE.match(line)
        if m and "[" not in m.group(2)[:4]:
            old_lines.append("")
            new_lines.append(m.group(1) + read_markup(m.group(2)).new)
            continue
        m = _DELETED_RE.match(line) or _DELETED_SECTION_RE.match(line)
        if m:
            old_lines.append(m.group(1) + m.group(2))
            new_lines.append("")
            continue
        if "[" in line or "**" in line:
            if re.match(r"\s*\[(?:\d+ Pa\.B\. \d+|(?:\w+day), .*|Pa\.B\. Doc\..*|Continued .*|\s*\d+ PA\. ?CODE.*)\]",
                        line) or re.match(r"\s*\[?\s*\d+ PA\. ?CODE", line) or not line.strip().startswith(
                            ("(", "§", "*", "[")) and not re.search(r"\[[^\]]*\]\s*\S|\*\*", line):
                old_lines.append(line)
                new_lines.append(line)
                continue
            v = read_markup(line)
            old_lines.append(v.old if line.strip() else line)
            new_lines.append(v.new if line.strip() else line)
            continue
        old_lines.append(line)
        new_lines.append(line)
    return "\n".join(old_lines), "\n".join(new_lines)


def amendment_changes(text: str) -> list[dict]:
    """Every marked change of a page, with its line: deleted / added text, renumbered labels,
    provisions or sections added or deleted whole."""
    out = []
    for k, line in enumerate(text.split("\n"), 1):
        if _BOLD_HEADING_RE.match(line):
            continue
        m = _RENUMBERED_RE.match(line)
        if m:
            out.append({"line": k, "change": "renumbered", "old": m.group(2), "new": m.group(3)})
            line = m.group(4)
        elif (_ADDED_RE.match(line) or _ADDED_SECTION_RE.match(line)) and "[" not in line.strip()[:6]:
            out.append({"line": k, "change": "added", "new": re.sub(r"\*\*", "", line).strip()})
            continue
        elif _DELETED_RE.match(line) or _DELETED_SECTION_RE.match(line):
            out.append({"line": k, "change": "deleted", "old": re.sub(r"^\s*\**\[|\]\**\s*$", "", line)})
            continue
        if ("[" in line or "**" in line) and line.strip().startswith(("(", "§", "*", "[")) \
                and not re.match(r"\s*\[[^\]]*\]\s*$", line) or re.search(r"\*\*|\[[^\]]*\]\s*\S", line):
            v = read_markup(line)
            for d in v.deleted:
                out.append({"line": k, "change": "deleted", "old": d})
            for a in v.added:
                out.append({"line": k, "change": "added", "new": a})
    return out

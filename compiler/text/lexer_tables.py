"""Paytables of Bulletin and Code pages, for the lexer (``compiler/text/lexer.py``): a heading and
its rows (flattened on one line, one row per line, or a pipe table); a table whose columns do not
line up with one heading -- two paytables printed side by side -- is refused with its position,
never merged into one."""
from __future__ import annotations

import re

from .hands import COLUMN_RE, HANDS_LONGEST_FIRST, PAYOUT_RE
from .lexer_patterns import LABEL_RE, ROW_CELLS, TABLE_HEAD_RE


# "Hand Paytable A Hand Paytable B", "Hand Payout Hand Payout": two tables' headings on one line
SIDE_BY_SIDE_RE = re.compile(rf"(?:Hand|Result)\s*(?:(?:{COLUMN_RE.pattern})\s*\|?\s*)+\|?\s*(?:Hand|Result)\b")
REFUSED = ("two paytables printed side by side are never read as one: read this table from a page that "
           "prints its tables one under the other")


class _Tables:
    """Table methods of the lexer (a mixin of ``lexer._Lexer``)."""

    def refuse_table(self, s: str, lineno: int, col: int, why: str, start: int | None = None) -> None:
        """Refuse the open table (its tokens from ``start`` are taken back, kept as furniture) and every
        row line up to the next blank line, label or heading: an error with its position."""
        if start is not None:
            for t in self.tokens[start:]:
                self.furn("refused_table", str(t.value), t.line, t.column - 1)
            del self.tokens[start:]
        self.problem("refused", f"paytable refused: {why}; {REFUSED}", lineno, col, s)
        self.furn("refused_table", s, lineno, col)
        self.table = {"refused": True, "ncols": 0, "pipe": False}
    def table_head(self, s: str, lineno: int, col: int) -> None:
        m = TABLE_HEAD_RE.match(s + " ")
        assert m
        start = len(self.tokens)
        self.tok("TABLE_HEAD", m.group(1), lineno, col)
        columns = [c for c in COLUMN_RE.finditer(m.group(2))]
        for c in columns:
            self.tok("COLUMN", c.group(0), lineno, col + m.start(2) + c.start())
        ncols = len(columns)
        pos = m.end()
        if pos >= len(s) or not s[pos:].strip():
            # heading alone on its line: rows follow one per line
            self.table = {"ncols": ncols, "pipe": False, "start": start}
            return
        rows = 0
        while pos < len(s):
            rest = s[pos:]
            label = None
            for name in HANDS_LONGEST_FIRST:
                if rest.startswith(name + " ") and PAYOUT_RE.match(rest, len(name) + 1):
                    label = name
                    break
            if label is None and rows == 0:
                # a hand not in the list: take the words before the first payout
                pm = PAYOUT_RE.search(rest)
                if pm and pm.start() > 0 and not re.search(r"[()§]", rest[: pm.start()]):
                    label = rest[: pm.start()].strip()
            if label is None:
                break
            self.tok("HAND", label, lineno, col + pos)
            p = pos + len(label) + 1
            for k in range(ncols):
                cm = PAYOUT_RE.match(s, p)
                if not cm:
                    if p >= len(s.rstrip()) and getattr(self, "is_last", False):
                        self.problem("cut", f"page cut short in paytable row {label!r} ({k} of {ncols} payouts)",
                                     lineno, col + p, label)
                        return
                    raise self.error(
                        f"paytable row {label!r} has {k} payouts, the heading announces {ncols}",
                        lineno, col + p)
                self.tok("CELL", cm.group(0), lineno, col + p)
                p = cm.end()
                if p < len(s) and s[p] == " ":
                    p += 1
            pos = p
            rows += 1
        if rows == 0:
            raise self.error("paytable without rows", lineno, col + pos)
        rest = s[pos:]
        if rest.strip():
            lead = len(rest) - len(rest.lstrip())
            self.content(rest.strip(), lineno, col + pos + lead, "")

    def table_row(self, s: str, lineno: int, col: int) -> bool:
        """One row of a table printed one row per line; False when the line is not a row."""
        t = self.table
        assert t is not None
        n = t["ncols"]
        if t["pipe"]:
            cells = self.pipe_cells(s)
            if cells is not None and len(cells) > n + 1 and not LABEL_RE.match(s) \
                    and sum(1 for c, _ in cells[1:] if PAYOUT_RE.fullmatch(c)) >= n:
                self.refuse_table(s, lineno, col, f"row with {len(cells) - 1} cells under a heading of {n} "
                                  "columns", t.get("start"))
                return True
            if cells is None or len(cells) != n + 1 or LABEL_RE.match(s) or len(cells[0][0]) > 100:
                return False
            if not any(PAYOUT_RE.fullmatch(c) or re.fullmatch(r"[$\d,.%*]+", c) for c, _ in cells[1:]):
                return False  # a line of headings: the next table starts here
            (lab, lc), rest = cells[0], cells[1:]
            if t.get("group"):
                self.tok("GROUP_MEMBER", "", lineno, col + lc)
            self.tok("HAND", lab, lineno, col + lc)
            for c, cc in rest:
                self.tok("CELL", c, lineno, col + cc)
            return True
        rx = re.compile(rf"(?P<label>.*?)\s*(?P<cells>{ROW_CELLS}(?:\s*{ROW_CELLS}){{{n - 1}}})\s*$")
        m = rx.match(s)
        if not LABEL_RE.match(s) and (m and PAYOUT_RE.search(m.group("label"))
                                      or not m and len(PAYOUT_RE.findall(s)) >= n and n):
            # "Royal flush 500 to 1 Royal flush 250 to 1": payouts that do not line up with the heading's
            # columns (another table's row printed beside this one)
            self.refuse_table(s, lineno, col, f"row with {len(PAYOUT_RE.findall(s))} payouts that do not line up "
                              f"with the heading's {n} column{'s' if n > 1 else ''}", t.get("start"))
            return True
        if m and m.group("label").strip():
            label = m.group("label").strip()
            if t.get("group") and col > t.get("group_col", 0):
                self.tok("GROUP_MEMBER", "", lineno, col)
            elif t.get("group"):
                t["group"] = None
            self.tok("HAND", label, lineno, col)
            cells = m.group("cells")
            base = m.start("cells")
            for cm in PAYOUT_RE.finditer(cells):
                self.tok("CELL", cm.group(0), lineno, col + base + cm.start())
            return True
        if s.endswith(":") and len(s) < 80 and not PAYOUT_RE.search(s):
            # "Third card drawn:": the rows indented under it belong to it
            t["group"] = s
            t["group_col"] = col
            self.tok("GROUP", s, lineno, col)
            return True
        if getattr(self, "is_last", False):
            cm = list(PAYOUT_RE.finditer(s))
            if cm and 0 < len(cm) < n:
                self.tok("HAND", s[: cm[0].start()].strip(), lineno, col)
                for c in cm:
                    self.tok("CELL", c.group(0), lineno, col + c.start())
                self.problem("cut", f"page cut short in a paytable row ({len(cm)} of {n} payouts)",
                             lineno, col + len(s), s)
                return True
        return False

    @staticmethod
    def pipe_cells(s: str) -> list[tuple[str, int]] | None:
        if "|" not in s:
            return None
        out = []
        start = 0
        for k, ch in enumerate(s + "|"):
            if ch == "|":
                seg = s[start:k]
                lead = len(seg) - len(seg.lstrip())
                out.append((seg.strip(), start + lead))
                start = k + 1
        if out and out[-1][0] == "":
            out.pop()
        return out

    @staticmethod
    def pipe_start(s: str) -> int | None:
        """Where a pipe table glued after text starts: after the last ": " or ". " before the first "|"."""
        first = s.find("|")
        head = s[:first]
        k = max(head.rfind(": "), head.rfind(". "))
        if k < 0:
            return None
        return k + 2

    def pipe_table(self, s: str, lineno: int, col: int) -> bool:
        """A pipe-table heading ("Hand | Paytable A | Paytable B |"), possibly after text."""
        k = self.pipe_start(s)
        if k is not None and k > 0:
            self.text_with_heading(s[:k].rstrip(), lineno, col, "UTEXT" if not LABEL_RE.match(s) else "TEXT")
            return True
        cells = self.pipe_cells(s)
        if not cells or len(cells) < 2:
            return False
        (head, hc), cols = cells[0], cells[1:]
        if any(re.fullmatch(r"Hand|Result", c) or c == head for c, _ in cols):
            self.refuse_table(s, lineno, col, f"the heading names the hand column ({head!r}) twice")
            return True
        if COLUMN_RE.fullmatch(head):
            self.refuse_table(s, lineno, col, f"the heading starts with a paytable ({head!r}), not the hand column")
            return True
        start = len(self.tokens)
        self.tok("TABLE_HEAD", head, lineno, col + hc)
        for c, cc in cols:
            self.tok("COLUMN", c, lineno, col + cc)
        self.table = {"ncols": len(cols), "pipe": True, "start": start}
        return True

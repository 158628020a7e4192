"""``rulespec import``: a rulespec skeleton (YAML) from a parsed Bulletin or Code page."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

import yaml

from .errors import TextError
from .hands import PER_AMOUNT, SCHEMA_ODDS_KINDS, guess_ranking, slug
from .model import Chapter, Definition, Document, Provision, Section, Table
from compiler.text.parser import parse_file

SCHEMA_LINE = "# yaml-language-server: $schema=../schemas/rulespec.schema.json"

CURLY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def straight_quotes(text: str) -> str:
    """Curly quotes to straight ASCII ones; ``''`` stays as printed (docs/spec-format.md)."""
    return text.translate(CURLY)


# ------------------------------------------------------------------ YAML output

class FlowList(list):
    """A short list written on one line: ``pays: [40 to 1, 40 to 1]``."""


class _Dumper(yaml.SafeDumper):
    pass


def _flow_list(dumper, data):
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


def _str(dumper, data):
    # plain style where YAML allows it, quoted only where needed; never folded
    return dumper.represent_scalar("tag:yaml.org,2002:str", data)


_Dumper.add_representer(FlowList, _flow_list)
_Dumper.add_representer(str, _str)


def dump_yaml(data: dict) -> str:
    body = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=10_000, indent=2)
    return SCHEMA_LINE + "\n" + body


# ------------------------------------------------------------------ conversion

def _section_key(number: str) -> tuple:
    m = re.match(r"(\d+)([a-z]?)\.(\d+)([a-z]?)", number)
    if not m:
        return (10**9, number)
    return (int(m.group(1)), m.group(2), int(m.group(3)), m.group(4))


DEF_CITE_RE = re.compile(r"(§ \S+) ([^()]+?)((?:\([^)]*\))*)$")


def spec_cite(cite: str) -> tuple[str, str]:
    """A citation a rulespec accepts, and what it leaves out: an item of a definition is cited by
    its section ("§ 657a.1 Lucky Bonus(ii)" -> "§ 657a.1", "definition 'Lucky Bonus', item (ii)")."""
    m = DEF_CITE_RE.match(cite)
    if not m:
        return cite, ""
    return m.group(1), f"definition {m.group(2)!r}" + (f", item {m.group(3)}" if m.group(3) else "")


def _missing(cite: str, what: str) -> dict:
    c, where = spec_cite(cite)
    return {"cite": c, "what": f"{where}: {what}" if where else what}


def _hand_id(hand: str, header: str) -> str:
    """A row id that is an identifier: "8, 8, 8 of the same suit" -> "hand_8_8_8_same_suit"."""
    return hand if re.match(r"[a-z]", hand) else f"{slug(header) or 'row'}_{hand}"


class _Paytables:
    def __init__(self) -> None:
        self.tables: dict[str, dict] = {}
        self.missing: list[dict] = []

    def importable(self, table: Table, cite: str) -> bool:
        """A table whose cells are all odds the schema knows; any other (jackpot shares,
        "Loss", a pipe table's free text) is listed under ``missing``, not imported."""
        odd = sorted({o.text for r in table.rows for o in r.odds if o.kind not in SCHEMA_ODDS_KINDS})
        if odd or not any(r.pays for r in table.rows):
            self.missing.append(_missing(cite, "paytable (" + " | ".join((table.header,) + table.columns)
                                         + ") not imported: cells that are not odds: " + ", ".join(odd)))
            return False
        return True

    def add(self, table: Table, cite: str, text: str) -> str:
        ident, title = _paytable_name(table, text)
        base, n = ident, 2
        while ident in self.tables:
            ident = f"{base}_{n}"
            n += 1
        # a row is written only where every payout was checked against the page; a row in doubt
        # is left out, its note kept beside the table (``note``) and listed under ``missing``
        doubts = [r for r in table.rows if r.pays and r.doubt]
        self.tables[ident] = {
            "title": title,
            "cite": spec_cite(cite)[0],
            "columns": FlowList(table.columns),
            "header": table.header,
            "rows": [{"hand": _hand_id(r.hand, table.header),
                      "label": f"{r.group} {r.label}" if r.group else r.label, "pays": FlowList(r.pays)}
                     for r in table.rows if r.pays and not r.doubt],
        }
        if doubts:
            self.tables[ident]["note"] = " ".join(
                f"Row at line {r.pos.line} not imported: {r.doubt}." for r in doubts)
            for r in doubts:
                self.missing.append(_missing(cite, f"paytable row at line {r.pos.line} not imported "
                                                   f"(its payout is not certain): {r.doubt}"))
        return ident


WAGER_RE = re.compile(r"((?:[A-Z][A-Za-z-]*\s)+)(?:Wagers?|Payouts?)\b")


def _wager(text: str) -> Optional[str]:
    m = WAGER_RE.search(text)
    if not m:
        return None
    name = m.group(1).strip()
    name = re.sub(r"^(?:A|An|The)\s+", "", name)
    return name or None


def _paytable_name(table: Table, text: str) -> tuple[str, str]:
    """Id (snake_case from the wager name) and title of a paytable."""
    if table.caption:
        m = re.match(r"\$([\d,]+)\s+(.*)$", table.caption)
        per = next((p for p in PER_AMOUNT if p.get("column") in table.columns), None) if m else None
        if per is not None:
            name = _wager(m.group(2) + " ") or m.group(2)
            ident = str(per["id_prefix"]) + re.sub(r"_payout$", "", slug(name)) + "_" + m.group(1).replace(",", "")
            return ident, str(per["title"]).format(caption=table.caption)
        name = _wager(table.caption + " ") or table.caption
        return re.sub(r"_payout$", "", slug(name)), name
    name = _wager(text) or "paytable"
    return re.sub(r"_payout$", "", slug(name)), re.sub(r"\s+Payout$", "", name)


def _node(p: Provision, pay: _Paytables) -> dict:
    if p.elided:
        return {"elided": True}
    d: dict[str, Any] = {"label": p.label, "text": straight_quotes(p.text)}
    if p.tables:
        tabs = []
        for t in [t for t in p.tables if pay.importable(t, p.cite)]:
            ident = pay.add(t, p.cite, p.text)
            entry: dict[str, Any] = {"paytable": ident}
            if t.caption:
                entry["caption"] = t.caption
            tabs.append(entry)
        if tabs:
            d["tables"] = tabs
    if p.after:
        d["after"] = straight_quotes(p.after)
    if p.children:
        d["children"] = [_node(c, pay) for c in p.children]
    return d


def _definition(df: Definition, pay: _Paytables) -> dict:
    d: dict[str, Any] = {"term": df.term, "text": straight_quotes(df.text)}
    if df.children:
        d["children"] = [_node(c, pay) for c in df.children]
    return d


def _section(s: Section, pay: _Paytables) -> dict:
    d: dict[str, Any] = {"section": s.number, "heading": s.heading}
    if s.text:
        d["text"] = straight_quotes(s.text)
    if s.definitions:
        d["definitions"] = [_definition(x, pay) for x in s.definitions]
    if s.tables:
        tabs = [{"paytable": pay.add(t, s.cite, s.text or "")} for t in s.tables if pay.importable(t, s.cite)]
        if tabs:
            d["tables"] = tabs
    if s.children:
        d["children"] = [_node(c, pay) for c in s.children]
    return d


def _all_refs(s: Section):
    yield from s.refs
    for df in s.definitions:
        yield from df.refs
        for c in df.children:
            yield from _node_refs(c)
    for c in s.children:
        yield from _node_refs(c)


def _node_refs(p: Provision):
    yield from p.refs
    for c in p.children:
        yield from _node_refs(c)


def externals(ch: Chapter) -> list[dict]:
    """Every section cited by the chapter that is not in it, with its "relating to" title."""
    titles: dict[str, Optional[str]] = {}
    for s in ch.sections:
        for r in _all_refs(s):
            secs = []
            for t, st in zip(r.targets, r.status):
                if not t.startswith("§"):
                    continue
                sec = re.match(r"§ (\S+?)(?:\(|$)", t).group(1)
                if sec not in secs:
                    secs.append(sec)
            parts = [None] * len(secs)
            if r.relating_to:
                if len(secs) == 1:
                    parts = [r.relating_to]
                else:
                    split = re.split(r";\s(?:and\s)?", r.relating_to)
                    if len(split) == len(secs):
                        parts = split
            for (t, st) in zip(r.targets, r.status):
                if st != "external" or not t.startswith("§"):
                    continue
                sec = re.match(r"§ (\S+?)(?:\(|$)", t).group(1)
                title = parts[secs.index(sec)]
                if titles.get(sec) is None:
                    titles[sec] = title
    out = []
    for sec in sorted(titles, key=_section_key):
        entry: dict[str, Any] = {"cite": f"§ {sec}"}
        if titles[sec]:
            entry["title"] = straight_quotes(titles[sec])
        out.append(entry)
    return out


def chapter_to_spec(doc: Document, chapter: str) -> dict:
    ch = doc.chapter(chapter)
    if ch is None:
        have = ", ".join(c.number for c in doc.chapters)
        raise TextError(f"chapter {chapter} is not in this file (it has: {have})", doc.path, 1, 1)
    if not re.match(r"\d+ Pa\.", doc.source_cite or ""):
        raise TextError(f"the page does not name its Title ({doc.source_cite or 'no citation'}): a rulespec's "
                        "source citation needs one, and none is invented", doc.path, 1, 1)
    pay = _Paytables()
    provisions = [_section(s, pay) for s in ch.sections]
    source: dict[str, Any] = {"citation": doc.source_cite or ""}
    if doc.date:
        source["date"] = doc.date
    source["file"] = Path(doc.path).name
    missing = list(pay.missing)
    if doc.cut is not None and ch.sections:
        last = [p for s in ch.sections for p in _all_nodes(s)]
        where = last[-1].cite if last else ch.sections[-1].cite
        why = next((n.message.replace("page cut short: ", "", 1) for n in doc.notices if n.kind == "cut"), "")
        missing.append(_missing(where, f"the source page is cut short here (line {doc.cut.line}: {why}); "
                                       "the rest of the section is not in the source"))
    missing_secs = [e for e in ch.sec_list if ch.section(e.number) is None]
    for e in missing_secs:
        missing.append({"cite": f"§ {e.number}", "what": f"{e.heading}: listed in the chapter, text not in the source"})
    for n in doc.notices:
        if n.kind == "gap":
            # "label (c) follows (a)": the provisions between are left out by the page
            sec = [x for x in ch.sections if x.pos.line <= n.pos.line]
            if sec:
                missing.append({"cite": sec[-1].cite, "what": f"line {n.pos.line}: {n.message}"})
        if n.kind == "omitted":
            missing.append(_missing(n.text, f"what it introduces is not in the source (line {n.pos.line}: it ends "
                                            "with a colon and the next provision follows)"))
    for n in doc.errors:
        missing.append({"cite": ch.sections[0].cite if ch.sections else f"§ {ch.number}.1",
                        "what": f"not read (line {n.pos.line}): {n.message}"})
    spec: dict[str, Any] = {
        "rulespec": 1,
        "chapter": ch.number,
        "title": _title_case(ch.title or ""),
        "source": source,
        "completeness": "complete" if ch.complete and not missing else "partial",
    }
    if missing:
        spec["missing"] = missing
    spec.update({
        "externals": externals(ch),
        "provisions": provisions,
        "paytables": pay.tables,
    })
    return spec


def _all_nodes(s: Section):
    for d in s.definitions:
        yield from _walk_nodes(d.children)
    yield from _walk_nodes(s.children)


def _walk_nodes(nodes):
    for n in nodes:
        yield n
        yield from _walk_nodes(n.children)


def _title_case(title: str) -> str:
    """'RAISE IT UP STUD POKER' -> 'Raise It Up Stud Poker' (the Bulletin prints chapter titles in capitals)."""
    return title.title() if title.isupper() else title


def import_file(path: str, chapter: Optional[str]) -> dict:
    doc = parse_file(path)
    dup = [TextError(n.message, path, n.pos.line, n.pos.column) for n in doc.notices if n.kind == "duplicate"]
    if dup:
        raise TextError(dup[0].message, path, dup[0].line, dup[0].column, tuple(dup[1:]))
    if not doc.chapters:
        msg = next((n.message for n in doc.notices if n.kind == "no_rule_text"), "no rule text on this page")
        raise TextError(f"nothing to import: {msg}", path, 1, 1)
    if chapter is None:
        if len(doc.chapters) != 1:
            raise TextError("this file holds chapters " + ", ".join(c.number for c in doc.chapters)
                            + "; choose one with --chapter", path, 1, 1)
        chapter = doc.chapters[0].number
    return chapter_to_spec(doc, chapter)

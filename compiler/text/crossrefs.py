"""Cross-references in provision text: found, parsed with compiler/lang/citation.lark and resolved."""
from __future__ import annotations

import re
from dataclasses import replace

from compiler.lang.citations import CitationSyntaxError, expand, parse_citation

from .model import Chapter, CrossRef, Pos, Provision, section_provisions


# -------------------------------------------------------------- cross-references

SEC = r"\d+[a-z]?\.\d+[a-z]?"
LAB = r"\([A-Za-z0-9]{1,5}\)"
_CONT = rf"(?:\s?[\u2014\u2013-]\s?|,\s(?:and\s|or\s)?|\s(?:and|or|through)\s)"
# "§ 669a.6(c)", "§  669a.7(d)(3)" (two spaces or a no-break space after the sign, as the
# official pages print it), "§ § 688a.8, 688a.9 or 688a.10", "§§ 669a.8-669a.10"
CITE_RE = re.compile(rf"§§?(?:\s*§)?\s*{SEC}(?:{LAB})*(?:{_CONT}(?:§\s*)?(?:{SEC}(?:{LAB})*|(?:{LAB})+))*")
# "Section 521.10(f) and (g)" / "Sections 635a.1 and 635a.2" (a Bulletin preamble's way)
SECTION_WORD_RE = re.compile(rf"\bSections?\s+(?={SEC})")
INTERNAL_RE = re.compile(
    rf"\b(subsections?|paragraphs?|subparagraphs?|clauses?|subclauses?)\s((?:{LAB})+(?:{_CONT}(?:{LAB})+)*)")
# "Chapter 461a (relating to ...)", "Chapters 535 and 567"
CHAPTER_REF_RE = re.compile(r"\bChapters?\s+(\d+[a-z]?(?:(?:,\s(?:and\s)?|\sand\s|\sor\s)\d+[a-z]?)*)\b(?!\.\d)")
RELATING_RE = re.compile(r"\s?\(relating to ([^()]*(?:\([^()]*\)[^()]*)*)\)")
KIND_DEPTH = {"subsection": 0, "paragraph": 1, "subparagraph": 2, "clause": 3, "subclause": 4}


def _refs(text: str, number: str, path: tuple[str, ...], pos: Pos) -> tuple[CrossRef, ...]:
    out = []
    if "\u00a0" in text:
        text = text.replace("\u00a0", " ")
    spans = [(m.start(), m.group(0)) for m in CITE_RE.finditer(text)] if "§" in text else []
    for m in (SECTION_WORD_RE.finditer(text) if "Section" in text else ()):
        c = CITE_RE.match("§ " + text[m.end():])
        if c:
            spans.append((m.start(), text[m.start(): m.end() + len(c.group(0)) - 2]))
    for start, span in spans:
        cite_text = span if span.startswith("§") else "§ " + span[span.index(" ") + 1:].lstrip()
        try:
            cites = expand(parse_citation(cite_text))
        except CitationSyntaxError:
            continue
        rel = RELATING_RE.match(text, start + len(span))
        out.append(CrossRef(span, tuple(c.format() for c in cites), (),
                            rel.group(1) if rel else None, Pos(pos.line, pos.column + start)))
    for m in (CHAPTER_REF_RE.finditer(text) if "Chapter" in text else ()):
        nums = re.findall(r"\d+[a-z]?", m.group(1))
        rel = RELATING_RE.match(text, m.end())
        out.append(CrossRef(m.group(0), tuple(f"Chapter {n}" for n in nums), (), rel.group(1) if rel else None,
                            Pos(pos.line, pos.column + m.start())))
    if number:
        for m in INTERNAL_RE.finditer(text):
            kind = m.group(1).rstrip("s")
            depth = KIND_DEPTH[kind]
            prefix = path[:depth] if len(path) >= depth else path
            base = number + "".join(f"({p})" for p in prefix)
            try:
                cites = expand(parse_citation(base + m.group(2)))
            except CitationSyntaxError:
                continue
            out.append(CrossRef(m.group(0), tuple(c.format() for c in cites), (), None,
                                Pos(pos.line, pos.column + m.start())))
    out.sort(key=lambda r: (r.pos.line, r.pos.column))
    return tuple(out)


def ref_section(target: str) -> str:
    """The section ("669a.6") or chapter ("Chapter 461a") a target names."""
    m = re.match(r"§ (\S+?)(?:\(|$)", target)
    return m.group(1) if m else target


def _index(doc_chapters) -> set[str]:
    have = set()
    for ch in doc_chapters:
        for s in ch.sections:
            have.add(s.cite)
            have.add(f"Chapter {ch.number}")
            for p in section_provisions(s):
                if not p.elided:
                    have.add(p.cite)
    return have


def _resolve_refs(refs, have: set[str], sections: set[str]) -> tuple[CrossRef, ...]:
    out = []
    for r in refs:
        status = []
        for t in r.targets:
            sec = ref_section(t)
            if t in have:
                status.append("internal")
            elif sec in sections:
                status.append("missing")
            else:
                status.append("external")
        out.append(replace(r, status=tuple(status)))
    return tuple(out)


def _resolve_node(p: Provision, have, sections) -> Provision:
    return replace(p, refs=_resolve_refs(p.refs, have, sections),
                   children=tuple(_resolve_node(c, have, sections) for c in p.children))


def _resolve(chapters: tuple[Chapter, ...]) -> tuple[Chapter, ...]:
    have = _index(chapters)
    sections = {s.number for ch in chapters for s in ch.sections}
    out = []
    for ch in chapters:
        secs = []
        for s in ch.sections:
            secs.append(replace(
                s, refs=_resolve_refs(s.refs, have, sections),
                definitions=tuple(replace(d, refs=_resolve_refs(d.refs, have, sections),
                                          children=tuple(_resolve_node(c, have, sections) for c in d.children))
                                  for d in s.definitions),
                children=tuple(_resolve_node(c, have, sections) for c in s.children)))
        out.append(replace(ch, sections=tuple(secs)))
    return tuple(out)

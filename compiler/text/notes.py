"""Editorial notes of Code pages read as data: the Source note's list of the documents
that adopted and amended a section (``amended August 15, 2014, effective August 16,
2014, 44 Pa.B. 5463; ...``), a third-party copy's adoption line, and the chapters a
Bulletin document names in its header (``[ 58 PA. CODE CHS. 465a, ... AND 676a ]``)."""
from __future__ import annotations

import re
from datetime import datetime
from typing import Optional

from .model import Pos, SourceEvent

ACTIONS = r"adopted|amended|added|reserved|renumbered|rescinded|deleted|corrected|expired|transferred"
DATE = r"[A-Z][a-z]+ \d{1,2}, \d{4}"
NUM_DATE = r"\d{1,2}/\d{1,2}/\d{4}"
SCOPE_RE = re.compile(r"provisions of this (§\s*\S+|Chapter \S+|Subchapter \S+)")
PIECE_RE = re.compile(rf"\b({ACTIONS})\b(?:\s+by Pennsylvania Bulletin,\s+Vol\.? (\d+), No\. (\d+)\.?)?"
                      rf"(?:\s+({DATE}|{NUM_DATE}))?", re.I)
EFFECTIVE_RE = re.compile(rf"effective\s+(?:(?:on\s+)?({DATE}|{NUM_DATE})|(immediately|upon publication))", re.I)
EXPIRES_RE = re.compile(rf"expires?\s+({DATE}|{NUM_DATE})", re.I)
PAB_RE = re.compile(r"(\d+) Pa\.B\. (\d+)")


def iso(text: Optional[str]) -> Optional[str]:
    if not text:
        return None
    for fmt in ("%B %d, %Y", "%m/%d/%Y"):
        try:
            return datetime.strptime(text.strip(), fmt).date().isoformat()
        except ValueError:
            continue
    return None


def source_events(text: str, pos: Pos) -> list[SourceEvent]:
    """Every action a Source note (or "Adopted by Pennsylvania Bulletin, Vol 54, No. 21. May
    25, 2024, effective 5/25/2024") records, in the order printed."""
    scope_m = SCOPE_RE.search(text)
    scope = re.sub(r"§\s*", "§ ", scope_m.group(1)) if scope_m else ""
    body = text[scope_m.end():] if scope_m else text
    out: list[SourceEvent] = []
    for piece in re.split(r";\s*", body):
        m = PIECE_RE.search(piece)
        if not m:
            continue
        date = iso(m.group(4))
        eff = EFFECTIVE_RE.search(piece)
        effective = iso(eff.group(1)) if eff and eff.group(1) else (date if eff and eff.group(2) else None)
        exp = EXPIRES_RE.search(piece)
        cite_m = PAB_RE.search(piece)
        if cite_m:
            cite = f"{cite_m.group(1)} Pa.B. {cite_m.group(2)}"
        elif m.group(2):
            cite = f"{m.group(2)} Pa.B. (Vol. {m.group(2)}, No. {m.group(3)})"
        else:
            cite = None
        if date is None and cite is None:
            continue  # "unless otherwise noted" and the like
        out.append(SourceEvent(m.group(1).lower(), date, effective, iso(exp.group(1)) if exp else None,
                               cite, scope, pos))
    return out


def affected_chapters(texts: list[str]) -> list[str]:
    """Chapters named by "[ 58 PA. CODE CHS. 535 AND 567 ]" headers, in order."""
    out: list[str] = []
    for text in texts:
        m = re.search(r"\[\s*\d+ PA\. ?CODE CHS?\.\s+([^\]]*)\]?", text, re.I)
        if not m:
            continue
        for n in re.findall(r"\b\d+[a-z]?\b", m.group(1)):
            if n not in out:
                out.append(n)
    return out

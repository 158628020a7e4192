"""The form's messages in plain words, with the §: each diagnostic of ``rulespec submission`` read
through the field it is about (its label on the form and its citation), never a raw pattern.

The CLI's own line (``file:line:col: error: ... [at /pointer]``) stays beside it on the page, so what
the form says can be compared with what ``rulespec submission`` says of the downloaded YAML."""
from __future__ import annotations

import re


def _rules_submission_cite() -> str:
    from compiler.submission.document import RULES_SUBMISSION_CITE  # (imported when a message is made)

    return RULES_SUBMISSION_CITE

HEADER_LABELS = {
    "certificate_holder": "Certificate holder", "facility": "Licensed facility",
    "effective_date": "Effective date", "contact": "Contact", "attachments": "Attachments",
    "game": "Game", "rules_submission": "Rules Submission format", "selections": "Selections",
}
_EXPECTED = re.compile(r"^'(?P<value>.*)' does not match the expected form: (?P<desc>.*)$", re.S)
_PATTERN = re.compile(r"does not match the pattern '.*'$", re.S)
_CITE = re.compile(r"§ \d")


def field_of(pointer: str, schema: dict) -> tuple[str, str]:
    """(label, citation) of the form's field a JSON pointer is about."""
    RULES_SUBMISSION_CITE = _rules_submission_cite()
    parts = [p for p in (pointer or "").split("/") if p]
    if len(parts) >= 2 and parts[0] == "selections":
        prop = (schema["properties"]["selections"].get("properties") or {}).get(parts[1]) or {}
        return prop.get("title", parts[1]), prop.get("x-cite", RULES_SUBMISSION_CITE)
    if len(parts) >= 2 and parts[0] == "contact":
        return f"Contact {parts[1]}", RULES_SUBMISSION_CITE
    if len(parts) >= 2 and parts[0] == "game":
        return {"edition": "Text of the chapter followed", "title": "Game title"}.get(parts[1], f"Game {parts[1]}"), \
            RULES_SUBMISSION_CITE
    if len(parts) >= 2 and parts[0] == "attachments":
        return f"Attachment {parts[1]}", RULES_SUBMISSION_CITE
    if parts:
        return HEADER_LABELS.get(parts[0], parts[0]), RULES_SUBMISSION_CITE
    return "The Rules Submission", RULES_SUBMISSION_CITE


def plain(message: str, pointer: str, schema: dict) -> str:
    """One diagnostic's message in plain words: ``Effective date: required, a date, YYYY-MM-DD (§ 601a.2)``."""
    label, cite = field_of(pointer, schema)
    parts = [p for p in (pointer or "").split("/") if p]
    msg = message.strip()
    for key in {parts[1] if len(parts) >= 2 and parts[0] == "selections" else None, parts[-1] if parts else None}:
        if key and msg.startswith(key + ": "):
            msg = msg[len(key) + 2:]  # the field's id: its label says it
    msg = re.sub(r"\s*\[at [^\]]*\]$", "", msg)
    m = _EXPECTED.match(msg)
    if m:
        msg = (f"required: {m['desc']}" if m["value"] == "" else f"{m['value']!r} is not {m['desc']}")
    elif _PATTERN.search(msg):
        msg = _PATTERN.sub("is not in the form this field takes", msg)
    elif msg == "must not be empty":
        msg = "required"
    elif msg.startswith("missing required field "):
        msg = "required: " + msg[len("missing required field "):]
    if not _CITE.search(msg):
        msg += f" ({cite})"
    return f"{label}: {msg}"

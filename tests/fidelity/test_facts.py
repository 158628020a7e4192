"""One source of truth: a fact both the data and the provision text state cannot change in one
place only (compiler/lint/facts.py). The mutations are generated from each rulespec, so a chapter
added later is covered too."""
from __future__ import annotations

import copy
import dataclasses
import functools
import re
from pathlib import Path

import pytest
from cli_run import run_rulespec

from compiler.lint.facts import _blank_cites, analyse, fact_diagnostics, fact_pattern, passages
from compiler.pipeline import compile_spec, spec_files
from compiler.spec.loader import load_document
from compiler.text.render import render_text

SPECS = spec_files()


def _get(data, pointer):
    node = data
    for tok in pointer.split("/")[1:]:
        tok = tok.replace("~1", "/").replace("~0", "~")
        node = node[int(tok)] if isinstance(node, list) else node[tok]
    return node


def _set(data, pointer, value):
    *head, last = pointer.split("/")[1:]
    node = _get(data, "/" + "/".join(head)) if head else data
    last = last.replace("~1", "/").replace("~0", "~")
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def _other(fact, texts):
    """A value of the same kind that none of the cited texts states (as the lint reads them)."""
    for k in range(1, 200):
        if fact.kind == "odds":
            a, b = fact.value.split(" to ")
            v = f"{int(a) + k} to {b}"
        else:
            v = fact.value + k
        pat = fact_pattern(dataclasses.replace(fact, value=v))
        if not any(pat.search(_blank_cites(t)) for t in texts):
            return v
    return None


def _cited_texts(data, fact):
    index = passages(data)
    return [x.text for c in fact.cites for x in index.get(c.key(), ())]


@functools.lru_cache(maxsize=None)
def _original(path):
    """The chapter as loaded, and the lint's reading of it (shared by the cases: never mutated)."""
    doc = load_document(str(path))
    return doc, analyse(doc.data)


def _case_ids():
    out = []
    for path in SPECS:
        doc, res = _original(path)
        seen = set()
        for t in res.ties:
            key = (t.fact.pointer, t.fact.span)
            if t.fact.kind in ("odds", "number", "amount") and key not in seen:
                seen.add(key)
                at = f"{t.fact.pointer}@{t.fact.span[0]}" if t.fact.span else t.fact.pointer
                out.append(pytest.param(path, at, id=f"{path.stem}{at}"))
    return out


CASES = _case_ids()


def test_every_chapter_with_text_numbers_has_tied_facts():
    chapters = {c.values[0].stem for c in CASES}
    for path in SPECS:
        res = _original(path)[1]
        if res.numbers:
            assert path.stem in chapters, f"{path.name}: no fact of the data is tied to its text"


def _fact_at(res, at):
    pointer, _, start = at.partition("@")
    ties = [t for t in res.ties if t.fact.pointer == pointer and t.fact.kind in ("odds", "number", "amount")
            and (t.fact.span[0] if t.fact.span else None) == (int(start) if start else None)]
    return pointer, ties


def _set_fact(data, fact, new):
    if fact.span is None:
        _set(data, fact.pointer, new)
    else:
        s = _get(data, fact.pointer)
        a, b = fact.span
        _set(data, fact.pointer, s[:a] + str(new) + s[b:])


def _diagnostics_of(doc, data):
    """The fact lint on *data*, placed by the positions of the original file: a mutation changes a
    value where it stands, so every pointer the lint names is at the same place (the loader is
    tested on its own; test_567_10_2_... below goes through a changed file and the CLI)."""
    return fact_diagnostics(dataclasses.replace(doc, data=data))


@pytest.mark.parametrize("path,at", CASES)
def test_changing_the_data_fails_at_the_data_and_the_text(path, at):
    doc, res = _original(path)
    pointer, ties = _fact_at(res, at)
    fact = ties[0].fact
    new = _other(fact, _cited_texts(doc.data, fact))
    assert new is not None
    data = copy.deepcopy(doc.data)
    _set_fact(data, fact, new)
    diags = _diagnostics_of(doc, data)
    errors = [d for d in diags if d.severity == "error" and d.pointer == pointer]
    assert errors, f"changing {pointer} to {new!r} in {path.name} went unnoticed"
    notes = [d for d in diags if d.severity == "note" and f"[{pointer}]" in d.message]
    assert notes and notes[0].pointer.startswith("/provisions/")


@pytest.mark.parametrize("path,at", CASES)
def test_changing_the_text_fails_at_the_data_and_the_text(path, at):
    doc, res = _original(path)
    pointer, ties = _fact_at(res, at)
    fact = ties[0].fact
    new = _other(fact, _cited_texts(doc.data, fact))
    data = copy.deepcopy(doc.data)
    # every place the text states the fact now states another value
    for t in sorted(ties, key=lambda t: -t.span[0]):
        s = _get(data, t.passage.pointer)
        a, b = t.span
        if s[a:b] == t.passage.text[a:b]:
            _set(data, t.passage.pointer, s[:a] + (f"${new:,}" if fact.kind == "amount" else str(new)) + s[b:])
    diags = _diagnostics_of(doc, data)
    assert any(d.severity == "error" and d.pointer == pointer for d in diags), \
        f"changing the text of {ties[0].passage.cite} ({fact.value!r}) in {path.name} went unnoticed"
    assert any(d.severity == "note" and d.pointer in {t.passage.pointer for t in ties} | {
        x.pointer for c in fact.cites for x in passages(doc.data).get(c.key(), ())} for d in diags)


def _paytable_cells():
    out = []
    for path in SPECS:
        data = _original(path)[0].data
        for tid, t in (data.get("paytables") or {}).items():
            out.append(pytest.param(path, tid, id=f"{path.stem}-{tid}"))
    return out


@pytest.mark.parametrize("path,tid", _paytable_cells())
def test_changing_a_paytable_cell_changes_the_rendered_text(path, tid):
    data = load_document(str(path)).data
    printed = any(tb.get("paytable") == tid for _, tb in _tables(data.get("provisions") or ()))
    before = render_text(data)
    changed = copy.deepcopy(data)
    row = changed["paytables"][tid]["rows"][0]
    cell = row["pays"][0] if isinstance(row["pays"], list) else row["pays"]
    new = "7777 to 1" if cell != "7777 to 1" else "7778 to 1"
    if isinstance(row["pays"], list):
        row["pays"][0] = new
    else:
        row["pays"] = new
    after = render_text(changed)
    assert (before != after) == printed
    if printed:
        assert "7777" in after


def _tables(nodes):
    for n in nodes:
        for t in n.get("tables") or ():
            yield n, t
        yield from _tables(n.get("children") or ())
        for d in n.get("definitions") or ():
            yield from _tables(d.get("children") or ())


def test_567_10_2_tie_payout_changed_in_the_data_fails_validate_at_both_places(tmp_path):
    src = Path("rulespecs/567-war.yaml").read_text(encoding="utf-8")
    assert "tie: {odds: 10 to 1, cite: § 567.10(2)}" in src
    bad = tmp_path / "567-war.yaml"
    bad.write_text(src.replace("tie: {odds: 10 to 1, cite: § 567.10(2)}", "tie: {odds: 8 to 1, cite: § 567.10(2)}"),
                   encoding="utf-8")
    r = run_rulespec("validate", bad)
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    data_line = 1 + src.splitlines().index("  tie: {odds: 10 to 1, cite: § 567.10(2)}")
    text_line = 1 + src.splitlines().index("    text: A Tie wager shall be paid at odds of 10 to 1.")
    assert any(re.match(rf".*567-war.yaml:{data_line}:\d+: error: .*§ 567.10\(2\).* \[at /payouts/tie/odds\]$", x)
               for x in lines), r.stderr
    assert any(re.match(rf".*567-war.yaml:{text_line}:\d+: note: .*\[at /provisions/.*/text\]$", x) for x in lines), r.stderr


def test_567_10_2_tie_payout_changed_in_the_text_fails_validate_at_both_places(tmp_path):
    src = Path("rulespecs/567-war.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "567-war.yaml"
    bad.write_text(src.replace("A Tie wager shall be paid at odds of 10 to 1.", "A Tie wager shall be paid at odds of 8 to 1."),
                   encoding="utf-8")
    c = compile_spec(bad)
    assert not c.ok
    assert any(d.pointer == "/payouts/tie/odds" and d.is_error for d in c.diagnostics)
    assert any(d.severity == "note" and d.pointer.startswith("/provisions/") for d in c.diagnostics)


def test_untied_names_only_pointers_of_the_spec(tmp_path):
    src = Path("rulespecs/567-war.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "567-war.yaml"
    bad.write_text(src.replace("at: /options/adjacent_positions/minimum", "at: /options/adjacent_positions/minimun"),
                   encoding="utf-8")
    c = compile_spec(bad)
    assert any(d.is_error and d.pointer == "/untied/0/at" for d in c.diagnostics)


# -- every number of the text is tied: changing any of them fails validate ---------------------

class _Doc:
    """A spec's data without its YAML positions: enough for fact_diagnostics, and fast."""

    def __init__(self, path, data):
        self.path, self.data = str(path), data

    def position(self, pointer):
        return 1, 1

    def has(self, pointer):
        try:
            _get(self.data, pointer)
            return True
        except (KeyError, IndexError, ValueError, TypeError):
            return False


_WORD_NEXT = {"a single": "two", "half": "one-third", "one-half": "one-third", "one half": "one third",
              "one-quarter": "one-third", "one quarter": "one third", "one-third": "one-quarter",
              "one third": "one quarter", "three-quarters": "one-quarter"}


def _changed_token(token):
    """Another value written the way the text writes this one ('six' -> 'seven', '10 to 1' -> '11 to 1')."""
    from compiler.lint.facts import WORDS
    low = token.lower()
    if low in _WORD_NEXT:
        return _WORD_NEXT[low]
    m = re.match(r"(\$?)([0-9][0-9,]*)(.*)$", token, re.S)
    if m:
        n = int(m.group(2).replace(",", ""))
        return f"{m.group(1)}{n + 1}{m.group(3)}"
    words = {w: n for n, w in WORDS.items()}
    n = words.get(low)
    if n is not None:
        new = WORDS.get(n + 1) or WORDS.get(n + 2) or "ninety"
        return new.capitalize() if token[0].isupper() else new
    return None


def _text_numbers():
    out = []
    for path in SPECS:
        if _original(path)[1].numbers:
            out.append(pytest.param(path, id=path.stem))
    return out


@pytest.mark.parametrize("path", _text_numbers())
def test_every_number_of_the_text_is_tied_to_data_or_declared(path):
    res = analyse(load_document(str(path)).data)
    assert res.numbers
    assert [(x.cite, tok) for x, _, tok in res.untied_numbers] == []
    assert res.dangling == 0  # a dangling citation would silence the errors at the text


# what a number word counts when it is an interval or a limit ('24 hours', 'six players')
_LIMIT_NOUN = re.compile(r"\s+(?:hours?|minutes?|days?|(?:betting\s+|player\s+)?positions?|players?|rounds?)\b",
                         re.IGNORECASE)


def _mutable(x, span, token):
    """The numbers written in digits (counts, odds, amounts, percentages, ranks) and the number
    words of intervals and limits. A number word changed to another value the data also states
    ('three-of-a-kind' -> 'four-of-a-kind', 'one deck' -> 'two decks' where two decks are allowed)
    can still go unnoticed: the lint ties a number by its value and what it counts."""
    return bool(re.match(r"[$0-9]", token)) or bool(_LIMIT_NOUN.match(x.text, span[1]))


@pytest.mark.parametrize("path", _text_numbers())
def test_changing_any_number_of_the_text_fails_validate(path):
    """Each number, odds, amount, count, time and percentage the provision text states in digits,
    and each interval or limit it states in words, changed alone in the text, gives an error (at
    the data that states it, at its declaration, or at the text)."""
    data = load_document(str(path)).data
    res = analyse(data)
    unnoticed, tried = [], 0
    for x, (a, b), token in res.numbers:
        if not _mutable(x, (a, b), token):
            continue
        new = _changed_token(token)
        assert new is not None, token
        changed = copy.deepcopy(data)
        text = _get(changed, x.pointer)
        assert text[a:b] == token
        _set(changed, x.pointer, text[:a] + new + text[b:])
        tried += 1
        if not any(d.severity == "error" for d in fact_diagnostics(_Doc(path, changed))):
            unnoticed.append(f"{x.cite}: {token!r} -> {new!r}")
    assert tried == sum(1 for x, sp, tok in res.numbers if _mutable(x, sp, tok))
    assert unnoticed == []


def _ranges():
    out = []
    for path in SPECS:
        res = _original(path)[1]
        for t in res.ties:
            if t.fact.kind == "range" and t.fact.span:
                out.append(pytest.param(path, t.fact.pointer, t.fact.value, id=f"{path.stem}{t.fact.pointer}"))
    return out


@pytest.mark.parametrize("path,pointer,ends", _ranges())
def test_a_range_changed_within_the_numbers_the_text_states_fails(path, pointer, ends):
    """'six to eight' (§ 567.3(a)) against 'option(decks) >= 6 and option(decks) <= 8': moving an end of
    the data's range onto the other end, or swapping them, keeps every number the text states, and
    still fails; so does swapping the text's range."""
    data = load_document(str(path)).data
    a, b = ends
    expr = _get(data, pointer)
    for na, nb in {(a, a), (b, b), (b, a)} - {(a, b)}:
        changed = copy.deepcopy(data)
        new = re.sub(rf"(>=\s*){a}(\s+and\s+.*?<=\s*){b}\b", rf"\g<1>{na}\g<2>{nb}", expr, count=1)
        assert new != expr
        _set(changed, pointer, new)
        errors = [d for d in fact_diagnostics(_Doc(path, changed)) if d.severity == "error"]
        assert any(d.pointer == pointer for d in errors), f"{pointer}: {new!r} went unnoticed"
    # the text's range swapped
    res = analyse(data)
    tie = next(t for t in res.ties if t.fact.kind == "range" and t.fact.pointer == pointer)
    text = tie.passage.text
    s, e = tie.span
    m = re.match(r"(\S+)(\s+(?:to|through)\s+)(\S+)$", text[s:e])
    changed = copy.deepcopy(data)
    _set(changed, tie.passage.pointer, text[:s] + m.group(3) + m.group(2) + m.group(1) + text[e:])
    assert any(d.severity == "error" and d.pointer == pointer for d in fact_diagnostics(_Doc(path, changed)))


def test_567_3_a_six_to_eight_decks_range_is_tied():
    data = load_document("rulespecs/567-war.yaml").data
    res = analyse(data)
    assert any(t.fact.kind == "range" and t.fact.value == (6, 8) and "six to eight" in t.passage.text[t.span[0]:t.span[1]]
               for t in res.ties)


def test_567_4_a_a_number_inside_a_declared_phrase_changed_fails_at_the_declaration_and_the_text(tmp_path):
    src = Path("rulespecs/567-war.yaml").read_text(encoding="utf-8")
    assert src.count("After receiving six or more decks") == 1
    bad = tmp_path / "567-war.yaml"
    bad.write_text(src.replace("After receiving six or more decks", "After receiving seven or more decks"),
                   encoding="utf-8")
    doc = load_document(str(bad))
    diags = fact_diagnostics(doc)
    k = next(i for i, t in enumerate(doc.data["text_facts"]) if t["cite"] == "§ 567.4(a)")
    assert any(d.severity == "error" and d.pointer == f"/text_facts/{k}/says" for d in diags)
    assert any(d.severity == "note" and d.pointer.startswith("/provisions/") and f"[/text_facts/{k}/says]" in d.message
               for d in diags)
    # the new number is tied to nothing: an error at the text too
    assert any(d.severity == "error" and d.pointer.startswith("/provisions/") and "'seven'" in d.message for d in diags)


def test_an_imported_skeleton_without_a_procedure_reports_coverage_without_errors():
    data = copy.deepcopy(load_document("rulespecs/567-war.yaml").data)
    keep = {"rulespec", "chapter", "title", "source", "completeness", "provisions"}
    skeleton = {k: v for k, v in data.items() if k in keep}
    res = analyse(skeleton)
    assert res.untied_numbers  # nothing executable states them yet
    assert not [d for d in fact_diagnostics(_Doc("skeleton.yaml", skeleton)) if d.severity == "error"]

"""What makes `rulespec validate` start quickly (docs/speed.md, issue 28 item 4) changes no result:

* the rule-language and citation parsers read from the build cache (compiler/lang/lark_cache.py) parse
  every expression, action list and citation of every rulespec and test chapter to the same tree as a
  parser built strictly from the grammar at that moment;
* a damaged entry is built again (never a traceback, never a wrong parser) and ``RULESPEC_NO_CACHE``
  writes nothing;
* a schema's meta-check is skipped only for the exact text that passed it before: a schema that fails
  it fails every time.

No time is measured here (bench/startup.py does)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from lark import Lark

from compiler import cache
from compiler.lang import citations, syntax
from compiler.lang.lark_cache import cached_lark
from compiler.spec.diagnostics import DiagnosticError

ROOT = Path(__file__).resolve().parents[2]
SPECS = sorted((ROOT / "rulespecs").glob("*.yaml")) + sorted((ROOT / "tests/fixtures/chapters").glob("*.yaml"))


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "_enabled", True)
    monkeypatch.setattr(cache, "_directory", tmp_path)
    return tmp_path


def _texts():
    """(start, text) of every `when` and `then` of every rule, and every cite, of every chapter."""
    exprs, actions, cites = set(), set(), set()

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("when", "players", "legal", "qualifying") and isinstance(v, str):
                    exprs.add(v)
                elif k == "then" and isinstance(v, str):
                    actions.add(v)
                elif k == "cite" and isinstance(v, str):
                    cites.add(v)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    for p in SPECS:
        walk(yaml.safe_load(p.read_text(encoding="utf-8")))
    return sorted(exprs), sorted(actions), sorted(cites)


def _same(a: Lark, b: Lark, start: str | None, texts) -> int:
    n = 0
    for t in texts:
        kw = {"start": start} if start else {}
        try:
            ta = a.parse(t, **kw)
        except Exception as e:  # noqa: BLE001 - both must fail alike
            ta = type(e).__name__
        try:
            tb = b.parse(t, **kw)
        except Exception as e:  # noqa: BLE001
            tb = type(e).__name__
        assert ta == tb, t
        n += isinstance(ta, str) is False
    return n


def test_the_cached_parsers_parse_every_chapter_as_freshly_built_ones(private_cache):
    exprs, actions, cites = _texts()
    grammar = (ROOT / "compiler/lang/rules.lark").read_text(encoding="utf-8")
    fresh = syntax.build_parser(grammar)
    cached_lark("rules", grammar, **syntax._OPTIONS)  # noqa: SLF001 - written ...
    from_cache = cached_lark("rules", grammar, **syntax._OPTIONS)  # noqa: SLF001 - ... and read
    assert from_cache is not fresh and list(private_cache.rglob("*.json"))
    assert _same(fresh, from_cache, "start_expr", exprs) > 100
    assert _same(fresh, from_cache, "start_actions", actions) > 100
    cgrammar = citations.GRAMMAR.read_text(encoding="utf-8")
    opts = dict(parser="lalr", strict=True, propagate_positions=True, maybe_placeholders=False)
    cached_lark("citations", cgrammar, **opts)
    assert _same(Lark(cgrammar, **opts), cached_lark("citations", cgrammar, **opts), None, cites) > 100


def test_a_damaged_parser_entry_is_built_again(private_cache, capsys):
    grammar = (ROOT / "compiler/lang/rules.lark").read_text(encoding="utf-8")
    fresh = syntax.build_parser(grammar).parse("a and b(1) > 2", start="start_expr")
    cached_lark("rules", grammar, **syntax._OPTIONS)  # noqa: SLF001
    (entry,) = private_cache.rglob("*.json")
    for forged in ("{'data': 1}", "__import__('os').system('false')", "[" * 50, '{"d":[["data",1]]}',
                   '{"d":[[{"t":[]},1]]}', '{"x":1,"y":2}', '{"q":[]}'):
        key = json.loads(entry.read_text())["key"]
        cache.store(key, forged)  # a sound entry (its digest matches) whose value is not a parser
        p = cached_lark("rules", grammar, **syntax._OPTIONS)  # noqa: SLF001
        assert p.parse("a and b(1) > 2", start="start_expr") == fresh
        assert cache.load(key)[1] != forged  # built again and stored again
    entry.write_text("garbage")
    assert cached_lark("rules", grammar, **syntax._OPTIONS).parse("a and b(1) > 2", start="start_expr") == fresh  # noqa: SLF001
    assert "damaged" in capsys.readouterr().err


def test_the_tables_are_written_and_read_back_exactly():
    """The entry's JSON gives back the parser's tables as they were: every int key an int, every tuple
    a tuple, every list a list (an independent walk compares the types, since 1 == True and a list
    never equals a tuple)."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    from compiler.lang.lark_cache import from_json, to_json

    def shape(x):
        if isinstance(x, dict):
            return ("dict", [(shape(k), shape(v)) for k, v in x.items()])
        if isinstance(x, (list, tuple)):
            return (type(x).__name__, [shape(v) for v in x])
        return (type(x).__name__, x)

    grammars = [((ROOT / "compiler/lang/rules.lark").read_text(encoding="utf-8"), syntax._OPTIONS),  # noqa: SLF001
                (citations.GRAMMAR.read_text(encoding="utf-8"),
                 dict(parser="lalr", strict=True, propagate_positions=True, maybe_placeholders=False))]
    for grammar, opts in grammars:
        data, memo = Lark(grammar, **opts).memo_serialize([TerminalDef, Rule])
        tables = {"data": data, "memo": memo}
        text = to_json(tables)
        assert shape(from_json(text)) == shape(tables)
        assert any(isinstance(k, int) for k in memo) and '"t":' in text  # both kinds are exercised
    for bad in ({1.5: 1}, {"a": 1.5}, {frozenset(): 1}):
        with pytest.raises(TypeError):
            to_json(bad)


def test_without_the_cache_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESPEC_NO_CACHE", "1")
    monkeypatch.setattr(cache, "_enabled", None)
    monkeypatch.setattr(cache, "_directory", tmp_path)
    cached_lark("rules", (ROOT / "compiler/lang/rules.lark").read_text(encoding="utf-8"), **syntax._OPTIONS)  # noqa: SLF001
    assert list(tmp_path.rglob("*")) == []


def test_a_schema_that_fails_its_meta_check_fails_every_time(private_cache, tmp_path):
    from compiler.spec.validate import _SCHEMAS, load_schema

    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text('{"type": "object"}')
    bad.write_text('{"minLength": -1}')
    for _ in range(2):
        _SCHEMAS.clear()
        assert load_schema(good) == {"type": "object"}
        with pytest.raises(DiagnosticError, match="less than the minimum"):
            load_schema(bad)


# -- a ranking's verdict (compiler/spec/checks.py, _build_ranking) ----------------------------------

NO_CATCH_ALL = {"kind": "poker", "cards": 5, "categories": [
    {"id": "pair", "name": "Pair", "pattern": {"groups": [2]}}]}  # a hand without a pair matches nothing


def _verdicts(monkeypatch, spec: dict, rid: str = "five_card") -> tuple:
    """The verdict on a ranking computed (its tables built), then read from the cache: building is
    forbidden the second time."""
    from compiler.spec import checks

    text = json.dumps(spec, sort_keys=True, default=str)
    checks._build_ranking.cache_clear()  # noqa: SLF001 - the process's own memory of verdicts
    computed = checks._build_ranking(text, rid)  # noqa: SLF001
    checks._build_ranking.cache_clear()  # noqa: SLF001

    def refuse(*_a, **_k):
        raise AssertionError("the ranking was built again")

    with monkeypatch.context() as m:
        m.setattr(checks.Ranking, "from_spec", refuse)
        cached = checks._build_ranking(text, rid)  # noqa: SLF001
    checks._build_ranking.cache_clear()  # noqa: SLF001
    return computed, cached


def test_a_rankings_verdict_is_read_back_the_same_as_computed(private_cache, monkeypatch):
    """A ranking that builds and one that cannot (no category matches a hand): the verdict read from
    the cache is the one computed, the refusal with its message."""
    good = yaml.safe_load((ROOT / "rulespecs/669a-raise-it-up-stud-poker.yaml").read_text(encoding="utf-8"))
    assert _verdicts(monkeypatch, good["rankings"]["five_card"]) == (None, None)
    bad, bad_cached = _verdicts(monkeypatch, NO_CATCH_ALL)
    assert bad == bad_cached and "the runtime cannot build ranking 'five_card'" in bad and "no category" in bad


def test_a_rankings_verdict_is_not_taken_from_the_cache_by_build_check_nor_from_a_forged_entry(
        private_cache, monkeypatch, capsys):
    from compiler.spec import checks

    text = json.dumps(NO_CATCH_ALL, sort_keys=True)
    checks._build_ranking.cache_clear()  # noqa: SLF001
    refusal = checks._build_ranking(text, "r")  # noqa: SLF001
    (entry,) = private_cache.rglob("*.json")
    key = json.loads(entry.read_text())["key"]
    cache.store(key, None)  # forged: "it builds"
    checks._build_ranking.cache_clear()  # noqa: SLF001
    with cache.verification():  # `rulespec build --check` builds it
        assert checks._build_ranking(text, "r") == refusal  # noqa: SLF001
    assert cache.load(key) == (True, refusal)  # and writes the verdict again
    for damaged in ("garbage", json.dumps({"format": cache.FORMAT, "key": key, "sha256": "0", "value": None})):
        entry.write_text(damaged)
        checks._build_ranking.cache_clear()  # noqa: SLF001
        assert checks._build_ranking(text, "r") == refusal  # noqa: SLF001
    assert "damaged" in capsys.readouterr().err
    checks._build_ranking.cache_clear()  # noqa: SLF001

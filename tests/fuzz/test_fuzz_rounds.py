"""A bounded mutation fuzzer over the seeded hand histories and Rules Submissions (issue 12).

Hypothesis mutates the files in rulespecs/rounds/ and rulespecs/submissions/ (a value replaced by a
hostile one, a key removed or added, a card duplicated, an event moved) and runs them through the
command line (`rulespec settle`, `rulespec submission`). Every run must end with exit status 0 or 1
and never a traceback; every error line must be positioned (FILE:LINE:COL: error:); and no round
whose cards the shoe cannot hold is ever settled. Deterministic (derandomized) and bounded.
"""
from __future__ import annotations

import copy
import re
import tempfile
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = sorted((ROOT / "rulespecs/rounds").glob("*.yaml"))
SUBMISSIONS = sorted((ROOT / "rulespecs/submissions").glob("*.yaml"))
ONE_DECK = [p for p in ROUNDS if p.name.split("-")[0] in ("669a", "670a", "688a")]
POSITIONED = re.compile(r"^.+:\d+:\d+: (error|warning|note): ")
FUZZ = settings(derandomize=True, deadline=None, database=None, max_examples=40,
                suppress_health_check=list(HealthCheck))

HOSTILE = ["NaN", "Infinity", "-Infinity", "1e400", 10 ** 30, "1234567890123456789012345678", -5, 0, "10.001",
           "", "JK", "AS", "ZZ", "10H", "\x1b[2J", "\u2028", None, True, False, [], {}, "9" * 300, 7, 3,
           {"event": "card_not_dealt"}, ["AS", "AS", "AS"], "war", "house_way", 2 ** 63]


def spec_of(path: Path) -> Path:
    return next((ROOT / "rulespecs").glob(path.name.split("-")[0] + "-*.yaml"))


@pytest.fixture(scope="module", autouse=True)
def cached_games():
    """Compile each chapter and build each ranking once for the whole module (speed only: the
    command line itself is what runs)."""
    from compiler import game_commands
    from compiler.runtime.engine import Table
    from compiler.submission import document

    mp = pytest.MonkeyPatch()
    games: dict = {}
    rankings: dict = {}

    def load(spec):
        key = str(Path(spec).resolve())
        if key not in games:
            games[key] = game_commands_load(spec)
        return games[key]

    game_commands_load = game_commands._load
    original_ranking = Table.ranking

    def ranking(self, rid):
        key = (id(self.game), rid)
        if key not in rankings:
            rankings[key] = original_ranking(self, rid)
        self._rankings[rid] = rankings[key]
        return rankings[key]

    chapters_cache: dict = {}
    original_find = document.find_chapters

    def find_chapters(root, wanted):
        key = (str(root), tuple(sorted(wanted)))
        if key not in chapters_cache:
            chapters_cache[key] = original_find(root, wanted)
        return chapters_cache[key]

    mp.setattr(game_commands, "_load", load)
    mp.setattr(Table, "ranking", ranking)
    mp.setattr(document, "find_chapters", find_chapters)
    yield
    mp.undo()


@lru_cache(maxsize=None)
def data_of(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def paths_in(node, prefix=()):
    """Every (path, value) of a data tree."""
    yield prefix, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths_in(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths_in(v, prefix + (i,))


def set_at(root, path, value):
    node = root
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value


def delete_at(root, path):
    node = root
    for k in path[:-1]:
        node = node[k]
    del node[path[-1]]


@st.composite
def mutated(draw, files):
    path = draw(st.sampled_from(files))
    data = copy.deepcopy(data_of(path))
    for _ in range(draw(st.integers(1, 3))):
        places = [p for p, _ in paths_in(data) if p]
        if not places:
            break
        where = draw(st.sampled_from(places))
        op = draw(st.sampled_from(["replace", "replace", "delete", "add", "duplicate_card"]))
        try:
            if op == "replace":
                set_at(data, where, copy.deepcopy(draw(st.sampled_from(HOSTILE))))
            elif op == "delete":
                delete_at(data, where)
            elif op == "add":
                node = data
                for k in where[:-1]:
                    node = node[k]
                if isinstance(node, dict):
                    node[draw(st.sampled_from(["bogus", "seat", "before", "decks", "1", "9", "dealer", "event"]))] = \
                        copy.deepcopy(draw(st.sampled_from(HOSTILE)))
                elif isinstance(node, list):
                    node.append(copy.deepcopy(draw(st.sampled_from(HOSTILE))))
            else:
                cards = [(p, v) for p, v in paths_in(data) if isinstance(v, str) and re.fullmatch(r"(10|[2-9TJQKA])[SHDC]|JK", v)]
                if cards:
                    p, v = draw(st.sampled_from(cards))
                    lists = [q for q, n in paths_in(data) if isinstance(n, list) and q and q[0] == "dealt"]
                    if lists:
                        q = draw(st.sampled_from(lists))
                        node = data
                        for k in q:
                            node = node[k]
                        node.append(v)
        except (KeyError, IndexError, TypeError):
            pass
    return path, data


def write(data, name: str) -> Path:
    d = Path(tempfile.mkdtemp(prefix="fuzz-"))
    f = d / name
    f.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return f


def run(argv, capsys):
    rc = main(argv)  # an exception escaping here is a traceback: the test fails
    out, err = capsys.readouterr()
    assert rc in (0, 1), (argv, rc, err)
    for line in err.splitlines():
        if line.strip() and not line.startswith(("usage:", " ")):
            assert POSITIONED.match(line) or line.startswith("warning: "), f"unpositioned error: {line!r}"
    return rc, out, err


def shoe_bound(data, spec_data) -> dict:
    """An upper bound on the copies of a card one round can see, from the data alone: the decks at
    the table (the hand history's option, else the spec's default), each of 52 cards and the spec's
    jokers (a dealing shoe never holds more than all the decks)."""
    opts = data.get("options") if isinstance(data.get("options"), dict) else {}
    decks = opts.get("decks")
    if not isinstance(decks, int) or isinstance(decks, bool) or decks < 1:
        decks = (spec_data.get("options", {}).get("decks") or {}).get("default", 1)
    jokers = spec_data["cards"]["deck"].get("jokers", 0)
    return {"card": decks, "JK": decks * jokers}


def cards_seen(data) -> Counter:
    seen: Counter = Counter()
    dealt = data.get("dealt") if isinstance(data.get("dealt"), dict) else {}
    lists = [v for zones in dealt.values() if isinstance(zones, dict) for v in zones.values() if isinstance(v, list)]
    if isinstance(data.get("burned"), list):
        lists.append(data["burned"])
    for lst in lists:
        for c in lst:
            if isinstance(c, str):
                c = c.strip().upper().replace("10", "T")
                seen["JK" if c in ("JK", "JOKER") else c] += 1
    return seen


@FUZZ
@given(mutated(ROUNDS))
def test_fuzzed_hand_histories_never_traceback_and_impossible_rounds_are_refused(capsys, case):
    path, data = case
    f = write(data, path.name)
    rc, out, err = run(["settle", str(spec_of(path)), str(f)], capsys)
    if rc == 0 and "submission" not in data:
        bound = shoe_bound(data, data_of(spec_of(path)))
        for card, n in cards_seen(data).items():
            assert n <= bound["JK" if card == "JK" else "card"], f"settled with {n} x {card}: {data}"


@settings(FUZZ, max_examples=25)
@given(st.sampled_from(ONE_DECK), st.data())
def test_fuzzed_card_duplicated_in_a_one_deck_game_is_refused(capsys, path, draw):
    data = copy.deepcopy(data_of(path))
    cards = [(who, z, c) for who, zones in data["dealt"].items() for z, lst in zones.items() for c in lst if c != "JK"]
    who, z, c = draw.draw(st.sampled_from(cards))
    to_who = draw.draw(st.sampled_from(list(data["dealt"])))
    to_zone = draw.draw(st.sampled_from(list(data["dealt"][to_who]) or [z]))
    data["dealt"][to_who].setdefault(to_zone, []).append(c)
    f = write(data, path.name)
    rc, out, err = run(["settle", str(spec_of(path)), str(f)], capsys)
    assert rc == 1 and "appears 2 times" in err, (path.name, c, err)


@settings(FUZZ, max_examples=25)
@given(mutated(SUBMISSIONS))
def test_fuzzed_submissions_never_traceback(capsys, case):
    path, data = case
    f = write(data, path.name)
    run(["submission", str(f)], capsys)

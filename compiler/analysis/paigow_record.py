"""The record of a long exact pai gow count (:mod:`compiler.analysis.paigow_exact`): its key (exactly the
parts of the compiled chapter the figures depend on, and the analysis version), where it lives (``records/``
beside the rulespec), reading it only while its key matches, writing it, and the full run behind
``rulespec analyze --exhaustive``."""
from __future__ import annotations

import hashlib
import json
import re
import time
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from math import comb
from pathlib import Path

from compiler.analysis.paigow_exact import ANALYSIS_VERSION, Refused, _log  # noqa: F401 (Refused: callers)
from compiler.analysis.paigow_optimal import run
from compiler.analysis.enumerate import standard_deck
from compiler.analysis.paigow_model import model_of, options_read
from compiler.analysis.record_check import record_problem
from compiler.steps import KINDS


# ---------------------------------------------------------------------------------------------
# The record: key, read, write
# ---------------------------------------------------------------------------------------------


def _plain(x):
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, (str, int, float, bool)) or x is None:
        return x
    return str(x)


# The parts of the chapter the counted figures depend on, in the order ``diff --impact`` names them. Nothing
# else goes into the key: a side wager's paytable, an Envy schedule, a text provision or a procedure step
# outside these parts may be amended and the record still applies.
PARTS = ("deck", "ranking", "house ways", "set-hands", "settle rules", "payouts")


def _covered_wagers(m) -> tuple[str, ...]:
    return tuple(w for w in (m.main, m.double) if w)


def _step_blob(s) -> dict:
    wording = KINDS[s.kind].wording  # what the log says changes no figure
    params = {k: v for k, v in dict(s.params).items() if k not in wording}
    return {"id": s.id, "kind": s.kind, "params": _plain(params), "exprs": [t for _, _, t in s.exprs],
            "when": s.when_text, "players": s.players_text,
            "rules": [{"when": r.when_text, "then": r.then_text} for r in s.rules]}


def _names_any(rule, wagers) -> bool:
    return any(a.wager in wagers or a.wager == "*" for a in rule.then)


def record_parts(game, chapter) -> dict:
    """Each part of the compiled chapter the counted figures depend on (:data:`PARTS`), as plain data:

    * deck: the deck and the option that chooses the number of decks;
    * ranking: every ranking the other parts name, with only the named hands they name;
    * house ways: the house ways the set-hands steps use;
    * set-hands: the ``set_hands`` steps (without the wording the log prints);
    * settle rules: the settle steps with a rule acting on the main wager or the Double Down, and the
      step that offers the Double Down (its amount);
    * payouts: those two wagers' terms, and the payouts and paytables they or those rules pay by."""
    m = model_of(game, chapter)
    wagers = _covered_wagers(m)
    steps = list(chapter.all_steps())
    set_hands = [_step_blob(s) for s in steps if s.kind == "set_hands"]
    settles = [s for s in steps if s.kind == "settle" and any(_names_any(r, wagers) for r in s.rules)]
    offers = [s for s in steps if s.kind == "offer" and dict(s.params).get("wager") in wagers]
    settle = [_step_blob(s) for s in settles + offers]
    ways = {str(dict(s.params).get("house_way")) for s in steps if s.kind == "set_hands"} - {"None"}
    hws = {hw.id: hw for hw in chapter.house_ways}
    house_ways = {w: _plain(_spec(hws, w)) for w in sorted(ways)}
    pays = {chapter.wagers[w].pays for w in wagers if w in chapter.wagers} - {None}
    tables = {chapter.wagers[w].paytable for w in wagers if w in chapter.wagers} - {None}
    for s in settles:
        for r in s.rules:
            for a in r.then:
                if a.wager in wagers or a.wager == "*":
                    pays |= {a.payout} - {None}
                    tables |= {a.paytable} - {None}
    payouts = {"wagers": _plain({w: _spec(chapter.wagers, w) for w in wagers}),
               "payouts": _plain({p: _spec(chapter.payouts, p) for p in sorted(pays)}),
               "paytables": _plain({t: _spec(chapter.paytables, t) for t in sorted(tables)})}
    cards = chapter.cards
    deck_opt = cards.get("decks_option")
    deck = {"deck": _plain(cards.get("deck")),
            "decks_option": _plain(_spec(chapter.options, deck_opt)) if deck_opt else None}
    named = json.dumps([set_hands, settle, house_ways, payouts], sort_keys=True)
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", named)) | {m.high_ranking, m.low_ranking}
    ranking = {}
    for rid, r in sorted(chapter.rankings.items()):
        if rid in words and isinstance(r, dict):
            r = {k: ({h: v for h, v in (x or {}).items() if h in words} if k in ("hands", "thresholds") else x)
                 for k, x in r.items()}
            ranking[rid] = _plain(r)
    return {"deck": deck, "ranking": ranking, "house ways": house_ways, "set-hands": set_hands,
            "settle rules": settle, "payouts": payouts}


def _spec(items, key):
    """The item ``key`` of a part of the chapter's IR as the rulespec writes it (None: no such item)."""
    x = items.get(key)
    return None if x is None else x.spec


def _digest(x) -> str:
    return hashlib.sha256(json.dumps(x, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def record_key(game, chapter) -> str:
    """SHA-256 of the analysis version and of :func:`record_parts`: exactly what the counted figures
    depend on, and nothing else."""
    return _digest({"version": ANALYSIS_VERSION, "parts": record_parts(game, chapter)})


def parts_changed(old, new) -> list[str]:
    """The parts (:data:`PARTS`) in which two chapters (each a (game, chapter) pair) differ: where a record
    of the first no longer applies to the second, why."""
    a, b = record_parts(*old), record_parts(*new)
    return [p for p in PARTS if _digest(a[p]) != _digest(b[p])]


def record_path(chapter, root: Path | None = None) -> Path:
    """``records/<chapter>-main-exact.json`` beside the chapter's rulespec (or under ``root``)."""
    from compiler.pipeline import ROOT

    if root is None:
        sp = Path(chapter.spec_path)
        root = (sp if sp.is_absolute() or sp.exists() else ROOT / sp).resolve().parent
    return root / "records" / f"{chapter.chapter}-main-exact.json"


def record_text(chapter) -> str | None:
    """The SHA-256 of the chapter's record file, if any (part of the key of cached analyses): any bytes,
    UTF-8 or not, give a key; a file over the size limit gives its size instead (it is ignored anyway)."""
    p = record_path(chapter)
    try:
        if not p.is_file():
            return None
        size = p.stat().st_size
        if size > RECORD_LIMIT:
            return f"over the limit: {size} bytes"
        return hashlib.sha256(p.read_bytes()).hexdigest()
    except OSError:
        return None


def spec_name(chapter) -> str:
    """The rulespec's path as the user gives it: relative to the project when inside it."""
    from compiler.pipeline import ROOT

    sp = Path(chapter.spec_path)
    try:
        return sp.resolve().relative_to(ROOT).as_posix() if sp.is_absolute() else sp.as_posix()
    except ValueError:
        return sp.as_posix()


def _option_values(game, chapter, options) -> dict:
    vals = {**game.defaults(), **dict(options or {})}
    return {o: _plain(vals.get(o)) for o in options_read(game, chapter)}


def load_record(game, chapter, root: Path | None = None, options=None) -> dict | None:
    """The committed record when its key (and the options the rules read) match the chapter as compiled
    now and it passes every check (:mod:`compiler.analysis.record_check`), else None."""
    return read_record(game, chapter, root, options)[0]


RECORD_LIMIT = 20 * 1024 * 1024  # bytes; the committed record is ~5 kB
_warned: set = set()


def read_record(game, chapter, root: Path | None = None, options=None) -> tuple[dict | None, str | None]:
    """(the record, None) when it can be used; (None, None) when there is none for the chapter as compiled
    now (no file, another key or other options: a stale record is not an error); (None, why) when the
    file is there but fails a check: then a warning names the file and the reason on stderr (once)."""
    p = record_path(chapter, root)
    if root is None and not p.is_file():
        p = next((q for q in (record_path(chapter, r) for r in _ALSO.get()) if q.is_file()), p)
    try:
        if not p.is_file():
            return None, None
        if p.stat().st_size > RECORD_LIMIT:
            return None, _ignored(p, f"larger than {RECORD_LIMIT // 2 ** 20} MB")
        rec = json.loads(p.read_bytes().decode("utf-8"))
    except OSError as e:
        return None, _ignored(p, f"cannot be read ({e.strerror or type(e).__name__})")
    except (ValueError, RecursionError) as e:
        return None, _ignored(p, f"not JSON ({type(e).__name__})")
    if not isinstance(rec, dict):
        return None, _ignored(p, f"a JSON {type(rec).__name__}, not a record")
    if rec.get("key") != record_key(game, chapter):
        return None, None
    if rec.get("options", {}) != _option_values(game, chapter, options):
        return None, None
    deals, hands = _deals_of(game, chapter)
    why = record_problem(rec, deals, hands)
    if why is not None:
        return None, _ignored(p, why)
    return rec, None


_ALSO: ContextVar[tuple] = ContextVar("records_also", default=())


@contextmanager
def records_also_beside(chapter):
    """While active, a chapter with no record file beside its own rulespec reads the record beside
    ``chapter``'s rulespec (``diff --impact``: the amended copy, written anywhere, reads the committed
    record of the chapter it amends; the key alone decides whether that record applies to it)."""
    token = _ALSO.set(_ALSO.get() + (record_path(chapter).parent.parent,))
    try:
        yield
    finally:
        _ALSO.reset(token)


def _deals_of(game, chapter) -> tuple[int, int]:
    """(deals, player hands) of the chapter's exact count: C(N, n) player hands times C(N - n, n)
    dealer hands."""
    m = model_of(game, chapter)
    n, N = m.high + m.low, len(standard_deck(game.cards.jokers))
    return comb(N, n) * comb(N - n, n), comb(N, n)


def _ignored(p: Path, why: str) -> str:
    """Warn (once per file and reason) that a record is ignored, and say why."""
    import sys

    text = f"record {p.name} ignored: {why}"
    if (str(p), why) not in _warned:
        _warned.add((str(p), why))
        print(f"warning: {p}: the record is ignored: {why}", file=sys.stderr)
    return text


def write_record(game, chapter, res: dict, seconds: float, command: str, root: Path | None = None) -> Path:
    frac = {k: str(v) for k, v in res.items() if isinstance(v, Fraction)}
    rec = {"chapter": chapter.chapter, "key": record_key(game, chapter), "analysis_version": ANALYSIS_VERSION,
           "deals": res["deals"], "figures": frac,
           "decimals": {k: f"{float(v):.10f}" for k, v in res.items() if isinstance(v, Fraction)},
           "main_counts": res["main_counts"], "double_always_counts": res.get("double_always_counts"),
           "main_by_net": res["main_by_net"], "double_always_by_net": res.get("double_always_by_net"),
           "options": _option_values(game, chapter, None),
           **{k: res[k] for k in ("main_optimal_counts", "main_optimal_by_net", "optimal_pruning") if k in res},
           "classes": res["classes"], "seconds": round(seconds), "command": command}
    p = record_path(chapter, root)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(rec, indent=1, sort_keys=True) + "\n")
    return p


def compute_and_record(spec: str, verbose: bool = True, root: Path | None = None) -> tuple[dict, Path]:
    """The full computation for the chapter of ``spec`` and its record (``rulespec analyze --exhaustive``)."""
    from compiler.runtime.from_ir import load_game

    mod, comp = load_game(spec)
    game, chapter = mod.GAME, comp.chapter
    t0 = time.perf_counter()
    res, cnt = run(game, chapter, verbose=verbose)
    secs = time.perf_counter() - t0
    _log(verbose, "  " + ", ".join(f"{k} {v:.0f} s" for k, v in cnt.seconds.items()))
    p = write_record(game, chapter, res, secs, f"rulespec analyze --exhaustive {spec}", root)
    return res, p


if __name__ == "__main__":  # pragma: no cover - the long run
    import sys

    r, path = compute_and_record(sys.argv[1])
    for k, v in r.items():
        if isinstance(v, Fraction):
            print(f"{k}: {v} = {float(v):.10f}")
    print(f"record: {path}")

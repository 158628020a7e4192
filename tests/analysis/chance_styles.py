"""The restyles of tests/analysis/test_chance_styles.py: each test chapter of tests/fixtures/chapters/ (NOT official
text) written again the way another regulator plausibly would, by text substitution (each function takes the
chapter's text and returns the restyled text; a substitution that no longer applies fails, so the original is
never tested twice). STYLES lists those compared wager for wager with their original."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CH = ROOT / "tests/fixtures/chapters"


def sub(text: str, old: str, new: str, count: int | None = 1) -> str:
    """``old`` replaced by ``new``: exactly ``count`` times (None: every time, at least once), so a
    restyle that no longer applies to the chapter fails here instead of testing the original twice."""
    n = text.count(old)
    assert n >= 1 if count is None else n == count, (old, n)
    return text.replace(old, new)


def rsub(text: str, pattern: str, new, count: int | None = 1) -> str:
    out, n = re.subn(pattern, new, text, flags=re.M)
    assert n >= 1 if count is None else n == count, (pattern, n)
    return out


def untied(text: str, *entries: tuple[str, str]) -> str:
    """The chapter with ``untied`` entries (pointer, why): numbers the restyled data gives that the provision
    text it cites does not state (the facts lint refuses them otherwise, as it should)."""
    assert "\nuntied:" not in text
    return rsub(text, r"^provisions:\n", "untied:\n" + "".join(f"  - {{at: {at}, why: \"{why}\"}}\n" for at, why in entries)
                + "provisions:\n")


def restyled(text: str) -> str:
    return sub(text, "# NOT OFFICIAL TEXT.", "# NOT OFFICIAL TEXT. Restyled by tests/analysis/test_chance_styles.py.")


# --- Dragon Tiger -----------------------------------------------------------------------------------------

DT_TIE = "hand(dragon_tiger, dealer.dragon) == hand(dragon_tiger, dealer.tiger)"


DT_D = "hand(dragon_tiger, dealer.dragon) > hand(dragon_tiger, dealer.tiger)"


DT_T = "hand(dragon_tiger, dealer.dragon) < hand(dragon_tiger, dealer.tiger)"


def dt_tie_first(text: str) -> str:
    """The tie settled first, in a step of its own; the Tiger's win written T > D."""
    rules_d = f'      - {{cite: § 944.7(a), when: "{DT_D}", then: win dragon; lose tiger; lose tie}}\n'
    rules_t = f'      - {{cite: § 944.7(a), when: "{DT_T}", then: win tiger; lose dragon; lose tie}}\n'
    text = sub(text, rules_d, "")
    text = sub(text, rules_t, "")
    tiger_wins = "hand(dragon_tiger, dealer.tiger) > hand(dragon_tiger, dealer.dragon)"
    return text.rstrip("\n").replace("\ntext_facts:", (
        "\n  - id: settle_main\n    do: settle\n    cite: § 944.6(b)\n    rules:\n"
        f'      - {{cite: § 944.7(a), when: "{tiger_wins}", then: win tiger; lose dragon; lose tie}}\n'
        f'      - {{cite: § 944.7(a), when: "{DT_D}", then: win dragon; lose tiger; lose tie}}\n'
        "text_facts:"), 1) + "\n"


def dt_points(text: str) -> str:
    """The cards compared by their points (ace 1 up to king 13), not by a high-card ranking."""
    text = rsub(text, r"^  dragon_tiger:\n(    .*\n)+", (
        "  dragon_tiger:\n    cite: § 944.4\n    kind: points\n"
        "    points: {A: 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8, '9': 9, T: 10, J: 11, Q: 12, K: 13}\n"))
    for zone in ("dragon", "tiger"):
        text = sub(text, f"hand(dragon_tiger, dealer.{zone})", f"points(dealer.{zone})", None)
    return text


def dt_community(text: str) -> str:
    """The two cards dealt to community zones, in one block."""
    text = sub(text, "  - {id: deal_dragon, do: deal, to: dealer,", "  - id: deal\n    do: block\n    cite: § 944.6(a)\n"
               "    steps:\n    - {id: deal_dragon, do: deal, to: community,")
    text = sub(text, "  - {id: deal_tiger, do: deal, to: dealer,", "    - {id: deal_tiger, do: deal, to: community,")
    return sub(text, "dealer.", "community.", None)


def dt_dragon_required(text: str) -> str:
    """The Dragon wager required (every player wagers on the Dragon), the others optional beside it."""
    return sub(text, "dragon: {name: Dragon, cite: § 944.5, pays: even_money}",
               "dragon: {name: Dragon, cite: § 944.5, pays: even_money, required: true}")


def dt_dealing_option(text: str) -> str:
    """Two dealing orders in two blocks, chosen by an option: Dragon first, or Tiger first."""
    old = re.search(r"^  - \{id: deal_dragon.*\n  - \{id: deal_tiger.*\n", text, flags=re.M).group(0)
    tiger_first = "".join(reversed(old.splitlines(keepends=True)))
    indent = lambda block, tag: block.replace("  - {id: deal_", f"      - {{id: {tag}_deal_")  # noqa: E731
    text = sub(text, old, (
        "  - id: dragon_first\n    do: block\n    cite: § 944.6(a)\n    when: option(dealing) == 'dragon_first'\n"
        f"    steps:\n{indent(old, 'd')}"
        "  - id: tiger_first\n    do: block\n    cite: § 944.6(a)\n    when: option(dealing) == 'tiger_first'\n"
        f"    steps:\n{indent(tiger_first, 't')}"))
    return sub(text, "procedure:\n", "options:\n  dealing:\n    title: The card dealt first\n    type: choice\n"
               "    values: [dragon_first, tiger_first]\n    default: dragon_first\n    cite: § 944.6(a)\nprocedure:\n")


# --- Roulette ---------------------------------------------------------------------------------------------

WHEEL_ORDER = ["0", "28", "9", "26", "30", "11", "7", "20", "32", "17", "5", "22", "34", "15", "3", "24", "36",
               "13", "1", "00", "27", "10", "25", "29", "12", "8", "19", "31", "18", "6", "21", "33", "16", "4",
               "23", "35", "14", "2"]


def _pocket_lines(text: str) -> dict[str, str]:
    return {m.group(1): m.group(0) for m in re.finditer(r'^      - \{label: "([0-9]+)",.*\n', text, flags=re.M)}


def rl_wheel_order(text: str) -> str:
    """The pockets listed in the order of the wheel (American), not of the layout."""
    lines = _pocket_lines(text)
    assert sorted(lines) == sorted(WHEEL_ORDER)
    block = "".join(lines.values())
    assert block in text
    return text.replace(block, "".join(lines[label] for label in WHEEL_ORDER))


def _labels(text: str, **attrs) -> list[str]:
    keep = []
    for label, line in _pocket_lines(text).items():
        if all(re.search(rf"\b{k}: {v}\b", line) for k, v in attrs.items()):
            keep.append(label)
    return keep


def rl_sets(text: str) -> str:
    """Columns as sets of pockets the wager covers (one legal set: hits(W) == 1); red and black as the labels
    of their pockets; dozens and halves as number ranges; the five number as labels; straight up as
    picked(W, pocket.label)."""
    for c in (1, 2, 3):
        pockets = ", ".join(f'"{x}"' for x in _labels(text, column=c))
        text = sub(text, f"column_{c}: {{name: {['First', 'Second', 'Third'][c - 1]} Column, cite: § 941.5(a), pays: two_to_one}}",
                   f"column_{c}: {{name: {['First', 'Second', 'Third'][c - 1]} Column, cite: § 941.5(a), pays: two_to_one, "
                   f"choose: {{wheel: spin, also: [[{pockets}]], cite: § 941.5(a)}}}}")
        text = sub(text, f'when: "pocket.column == {c}"', f'when: "has(column_{c}) and hits(column_{c}) == 1"')
    for colour in ("red", "black"):
        cond = " or ".join(f"pocket.label == '{x}'" for x in _labels(text, colour=colour))
        text = sub(text, f"when: \"pocket.colour == '{colour}'\"", f'when: "{cond}"')
    for d, (lo, hi) in enumerate([(1, 12), (13, 24), (25, 36)], 1):
        text = sub(text, f'when: "pocket.dozen == {d}"', f'when: "pocket.number >= {lo} and pocket.number <= {hi}"')
    text = sub(text, "when: \"pocket.half == 'low'\"", 'when: "pocket.number >= 1 and pocket.number <= 18"')
    text = untied(text, ("/procedure/1/rules/16/when", "Low (1-18): the numbers from 1 to 18"))
    text = sub(text, "when: \"pocket.half == 'high'\"", 'when: "pocket.number >= 19"')
    text = sub(text, 'when: "pocket.number <= 3"',
               "when: \"pocket.label == '0' or pocket.label == '00' or pocket.label == '1' or pocket.label == '2' "
               "or pocket.label == '3'\"")
    return sub(text, "has(straight_up) and hits(straight_up) == 1", "has(straight_up) and picked(straight_up, pocket.label)")


def rl_each_lost(text: str) -> str:
    """Each outside wager lost by a rule of its own (the opposite condition), each inside one likewise; no
    ``lose all``."""
    rules = re.findall(r'^      - \{cite: (§ 941\.[45]\([a-f]\)), when: "(.*)", then: win (\w+)\}\n', text, flags=re.M)
    assert len(rules) == 18
    losing = "".join(f'      - {{cite: {cite}, when: "not ({cond})", then: lose {w}}}\n' for cite, cond, w in rules)
    return sub(text, "      - {cite: § 941.7, then: lose all}\n", losing)


LP_RULE = ("      - cite: § 945.7\n        when: option(la_partage) and pocket.number == 0\n        then: surrender red 1/2; "
           "surrender black 1/2; surrender odd 1/2; surrender even 1/2; surrender low 1/2; surrender high 1/2\n")


def lp_partage_step_first(text: str) -> str:
    """La partage in a settle step of its own, before the even-money wagers', under a block the option
    chooses, its rule reading the zero's label."""
    text = sub(text, LP_RULE, "")
    step = ("  - id: partage\n    do: block\n    cite: § 945.7\n    when: option(la_partage)\n    steps:\n"
            "      - id: partage_settle\n        do: settle\n        cite: § 945.7\n        rules:\n"
            + LP_RULE.replace("      - cite", "          - cite").replace("        when: option(la_partage) and pocket.number == 0",
                                                                        "            when: \"pocket.label == '0'\"")
            .replace("        then:", "            then:"))
    return sub(text, "  - id: even_money\n", step + "  - id: even_money\n")


# --- Sic Bo -----------------------------------------------------------------------------------------------

FACES_TOTAL = "(dice_count(1) + 2 * dice_count(2) + 3 * dice_count(3) + 4 * dice_count(4) + 5 * dice_count(5) + 6 * dice_count(6))"


def sb_faces(text: str) -> str:
    """The total written from the faces the dice show; a triple as one distinct face."""
    text = sub(text, '"dice.total <= 10 and not dice.triple"', f'"{FACES_TOTAL} <= 10 and dice.distinct > 1"')
    text = sub(text, '"dice.total >= 11 and not dice.triple"', f'"{FACES_TOTAL} >= 11 and dice.distinct != 1"')
    text = sub(text, "when: dice.triple, then: win any_triple", "when: dice.distinct == 1, then: win any_triple")
    why = "the total of the faces: each face's number times the dice showing it"
    return untied(text, ("/procedure/1/rules/0/when", why), ("/procedure/1/rules/1/when", why),
                  ("/procedure/1/rules/9/when", "the three dice show the same number: one distinct face"))


def sb_total_paytable(text: str) -> str:
    """The Total wager paid by a paytable on the dice total, one row a total, in one rule."""
    text = rsub(text, r'^      - \{cite: § 942\.5\(b\), when: "has\(total\).*\n', "", count=6)
    text = sub(text, "      - {cite: § 942.4(c),",
               '      - {cite: § 942.5(b), when: "has(total) and picked(total, dice.total)", then: win total by totals on dice.total}\n'
               "      - {cite: § 942.4(c),")
    odds = {4: "60", 17: "60", 5: "30", 16: "30", 6: "17", 15: "17", 7: "12", 14: "12", 8: "8", 13: "8"}
    rows = "".join(f"      - {{value: {t}, label: Total of {t}, pays: [{odds.get(t, '6')} to 1]}}\n" for t in range(4, 18))
    text = rsub(text, r"^  total_.*\n", "", count=6)
    return sub(text, "procedure:\n", f"paytables:\n  totals:\n    title: Total\n    cite: § 942.5(b)\n"
               f"    columns: [Pays]\n    header: Total\n    rows:\n{rows}procedure:\n")


def sb_single_descending(text: str) -> str:
    """The Single Number's rules from three dice down, the last one 'one or more' (a wager settled once: the
    first rule that applies pays it)."""
    rules = re.findall(r"^      - \{cite: § 942\.5\(e\), when: \"has\(single\) and hits\(single\) == \d\".*\n", text, flags=re.M)
    assert len(rules) == 3
    text = sub(text, "".join(rules), "".join(reversed(rules)))
    return sub(text, "has(single) and hits(single) == 1", "has(single) and hits(single) >= 1")


# --- Big Six ----------------------------------------------------------------------------------------------

def b6_attribute(text: str) -> str:
    """The segments listed from the rarest, each with a symbol the rules read, not the label."""
    symbols = [("$1", "one", 24), ("$2", "two", 15), ("$5", "five", 7), ("$10", "ten", 4), ("$20", "twenty", 2),
               ("Joker", "joker", 1), ("Flag", "flag", 1)]
    old = "".join(f'        - {{label: "{lab}", count: {n}}}\n' if lab.startswith("$") else
                  f"        - {{label: {lab}, count: {n}}}\n" for lab, _, n in symbols)
    new = "".join(f'        - {{label: "{lab}", symbol: {sym}, count: {n}}}\n' for lab, sym, n in reversed(symbols))
    text = sub(text, old, new)
    for lab, sym, _ in symbols:
        text = sub(text, f"when: \"pocket.label == '{lab}'\"", f"when: \"pocket.symbol == '{sym}'\"")
    return text


B6_SYMBOLS = {"one": "$1", "two": "$2", "five": "$5", "ten": "$10", "twenty": "$20", "joker": "Joker", "flag": "Flag"}


def b6_one_wager(text: str) -> str:
    """One wager on a symbol the player chooses (a segment's label), paid by a table of values on the label the
    wheel stops at, instead of a wager per symbol each with its payout."""
    text = rsub(text, r"^wagers:\n(  .*\n)+", "wagers:\n  symbol: {name: Symbol, cite: § 943.4, choose: {wheel: spin, size: 1, "
                "cite: § 943.4}}\n")
    odds = {lab: re.search(rf"^  {w}: \{{odds: ([^,]+),", text, flags=re.M).group(1) for w, lab in B6_SYMBOLS.items()}
    rows = "".join(f'      - {{value: "{lab}", label: "{lab}", pays: [{o}]}}\n' for lab, o in odds.items())
    text = rsub(text, r"^payouts:\n(  .*\n)+", "paytables:\n  symbols:\n    title: Payouts\n    cite: § 943.5\n"
                f"    columns: [Pays]\n    header: Symbol\n    rows:\n{rows}")
    text = rsub(text, r"^      - \{cite: § 943\.4, when: \"pocket\.label == .*\n", "", count=7)
    return sub(text, "      - {cite: § 943.6, then: lose all}\n",
               '      - {cite: § 943.5, when: "has(symbol) and hits(symbol) == 1", then: win symbol by symbols on pocket.label}\n'
               "      - {cite: § 943.6, then: lose all}\n")


# --- Craps ------------------------------------------------------------------------------------------------

def cr_dice_while(text: str) -> str:
    """dice.total for round.roll; the point loop runs while the point is on, not until it is off."""
    text = sub(text, "round.roll", "dice.total", None)
    return sub(text, "    until: state.point == 0\n", "    while: state.point != 0\n")


def cr_field_paytable(text: str) -> str:
    """The Field paid by a paytable on the total, one row a winning total."""
    text = rsub(text, r"^      - \{cite: § 981\.7\(a\), when: round\.roll == (2|12|3 or).*\n", "", count=3)
    text = sub(text, "      - {cite: § 981.7(a), when: round.roll == 5 or",
               "      - {cite: § 981.7(a), when: round.roll == 2 or round.roll == 3 or round.roll == 4 or round.roll == 9"
               " or round.roll == 10 or round.roll == 11 or round.roll == 12, then: win field by field on round.roll}\n"
               "      - {cite: § 981.7(a), when: round.roll == 5 or")
    rows = "".join(f"      - {{value: {t}, label: Total of {t}, pays: [{p}]}}\n" for t, p in
                   [(2, "2 to 1"), (3, "1 to 1"), (4, "1 to 1"), (9, "1 to 1"), (10, "1 to 1"), (11, "1 to 1"),
                    (12, "3 to 1")])
    text = rsub(text, r"^  field_(2|12): .*\n", "", count=2)
    return sub(text, "procedure:\n", f"paytables:\n  field:\n    title: Field\n    cite: § 981.8(b)\n"
               f"    columns: [Pays]\n    header: Total\n    rows:\n{rows}procedure:\n")


# --- Mini-Baccarat ----------------------------------------------------------------------------------------

def mb_totals(text: str) -> str:
    """Naturals as totals of 8 or more on the first two cards; the hands compared by their totals."""
    text = sub(text, "when: not natural(community.player) and not natural(community.banker)",
               "when: total(community.player) < 8 and total(community.banker) < 8")
    text = untied(text, ("/procedure/4/when", "a natural: a total of eight or nine on the first two cards (906.4(b))"))
    return sub(text, "hand(baccarat, community.", "total(community.", None)


def mb_split_settle(text: str) -> str:
    """One settle step per wager, the Tie first."""
    block = re.search(r"^  - id: settle\n(.*\n)*?(?=^# numbers)", text, flags=re.M).group(0)
    hp, hb = "hand(baccarat, community.player)", "hand(baccarat, community.banker)"
    steps = []
    for wager, rules in [("tie", [(f"{hp} == {hb}", "win tie"), (f"{hp} != {hb}", "lose tie")]),
                         ("player", [(f"{hp} > {hb}", "win player"), (f"{hp} < {hb}", "lose player"),
                                     (f"{hp} == {hb}", "push player")]),
                         ("banker", [(f"{hb} > {hp}", "win banker"), (f"{hb} < {hp}", "lose banker"),
                                     (f"{hb} == {hp}", "push banker")])]:
        cite = "§ 906.6(d)" if wager == "tie" else "§ 906.6(c)"
        steps.append(f"  - id: settle_{wager}\n    do: settle\n    cite: {cite}\n    rules:\n" + "".join(
            f'      - {{cite: {cite}, when: "{cond}", then: {then}}}\n' for cond, then in rules))
    return text.replace(block, "".join(steps))


# --- Red Dog --------------------------------------------------------------------------------------------

def rd_between_first(text: str) -> str:
    """The pair settled in a step of its own; then the winning spreads, each with the third card between the
    two written out, and every other hand lost by a rule without a condition, instead of a losing rule on
    'not between' before the wins."""
    lose = re.search(r"^      - cite: § 951\.7\(c\)\n(        .*\n)+?        then: lose ante; lose raise\n", text,
                     flags=re.M).group(0)
    text = sub(text, lose, "")
    f, sc, t = "hand(red_dog, community.first)", "hand(red_dog, community.second)", "hand(red_dog, community.third)"
    between = f"({t} > {f} and {t} < {sc} or {t} > {sc} and {t} < {f})"
    text = sub(text, 'when: "has(ante) and spread(red_dog,', f'when: "has(ante) and {between} and spread(red_dog,', 4)
    text = sub(text, "      - {cite: § 951.7(b)(1),", "  - id: settle_spread\n    do: settle\n    cite: § 951.7\n    rules:\n"
               "      - {cite: § 951.7(b)(1),")
    return sub(text, "\ninterpretations:", "\n      - {cite: § 951.7(c), then: lose ante; lose raise}\ninterpretations:")


# --- EZ Baccarat ------------------------------------------------------------------------------------------

def ez_one_zone(text: str) -> str:
    """Each hand's third card dealt into the hand's own zone (three cards in one zone), read as card 3 of it,
    instead of a zone of its own; the hands compared by hand(points, ...) instead of total(...)."""
    text = rsub(text, r"zone: (player|banker)_third\b", r"zone: \1", None)
    for side in ("player", "banker"):
        text = sub(text, f"total(community.{side} + community.{side}_third)", f"total(community.{side})", None)
    for op in (">", "<", "=="):
        text = sub(text, f"total(community.player) {op} total(community.banker)",
                   f"hand(points, community.player) {op} hand(points, community.banker)", None)
    text = sub(text, "count(community.player_third) == 0", "count(community.player) == 2")
    text = sub(text, "count(community.player_third) == 1", "count(community.player) == 3", None)
    text = sub(text, "count(community.banker_third) == 1", "count(community.banker) == 3", None)
    # the Banker's draws are flow mappings: a condition that reads card(zone, 3) holds a comma, so it is quoted
    text = rsub(text, r"(\n +when: )(total\(community\.banker\)[^\n}]*points\(community\.player_third\)[^\n}]*)\}",
                r'\1"\2"}', None)
    text = sub(text, "points(community.player_third)", "points(card(community.player, 3))", None)
    # the Banker's draws are steps one after another: with the third card in the hand's own zone, a later
    # step's total would read three cards, so each draws only while the Banker holds two
    text = rsub(text, r'(\n +when: "?)total\(community\.banker\)', r"\1count(community.banker) == 2 and total(community.banker)",
                None)
    assert "_third" not in text.split("\nprocedure:", 1)[1].split("\ntext_facts:", 1)[0]
    why = "a hand holding its third card: its two first cards and the one drawn, in one zone"
    return untied(text, *((at, why) for at in ("/procedure/2/steps/1/when", "/procedure/3/rules/1/when",
                                               "/procedure/3/rules/2/when", "/procedure/3/rules/4/when",
                                               "/procedure/3/rules/5/when")))


def ez_panda_catch_all(text: str) -> str:
    """The Panda 8 lost by a rule without a condition after its winning rule, not by the negated condition."""
    return rsub(text, r"^      - cite: § 907\.8\(e\)\n        when: >-\n          not \(.*\n.*\n        then: lose panda_8\n",
                "      - {cite: § 907.8(e), then: lose panda_8}\n")


STYLES = [
    ("dragon-tiger", dt_tie_first, {}),
    ("dragon-tiger", dt_points, {}),
    ("dragon-tiger", dt_community, {}),
    # the required Dragon's figure is the round's, "no decisions" where the original's optional one says "any"
    ("dragon-tiger", dt_dragon_required, {"policy_free": ("dragon",)}),
    ("dragon-tiger", dt_dealing_option, {"options": {"dealing": "dragon_first"}}),
    ("dragon-tiger", dt_dealing_option, {"options": {"dealing": "tiger_first"}}),
    ("roulette-00", rl_wheel_order, {}),
    # a column written as its set of pockets is a wager on chosen numbers of one legal set: its figure's
    # policy names the set ("placed on [1, 4, ...]") where the original's says "any"
    ("roulette-00", rl_sets, {"policy_free": ("column_1", "column_2", "column_3")}),
    ("roulette-00", rl_each_lost, {}),
    ("roulette-0-la-partage", lp_partage_step_first, {"options": {"la_partage": True}}),
    ("roulette-0-la-partage", lp_partage_step_first, {"options": {"la_partage": False}}),
    ("sic-bo", sb_faces, {}),
    ("sic-bo", sb_total_paytable, {}),
    ("sic-bo", sb_single_descending, {}),
    ("big-six", b6_attribute, {}),
    ("craps", cr_dice_while, {}),
    ("craps", cr_field_paytable, {}),
    ("mini-baccarat", mb_totals, {"decks": 1}),
    ("mini-baccarat", mb_split_settle, {"decks": 1}),
    ("red-dog", rd_between_first, {}),
    ("ez-baccarat", ez_one_zone, {"decks": 1}),
    ("ez-baccarat", ez_panda_catch_all, {"decks": 1}),
]


# --- Blackjack (a reduced shoe: the draw walk over every deal of ten cards) --------------------------------

BJ_DEALER = '''  - id: dealer_draws
    do: repeat
    when: any_player(active())
    while: total(dealer.cards) < 17 or (option(hit_soft_17) and total(dealer.cards) == 17 and soft(dealer.cards))
    bound: 20
    cite: § 961.10(a)
    steps:
      - {id: dealer_card, do: deal, to: dealer, zone: hits, count: 1, face: up, cite: § 961.10(a)}
'''


def bj_dealer_block_until(text: str) -> str:
    """The dealer's drawing as a block entered while the dealer must draw, holding a loop that draws until the
    dealer may stand (``until``, tested after each card), instead of one ``while`` loop."""
    return sub(text, BJ_DEALER, '''  - id: dealer_draws
    do: block
    when: any_player(active()) and (total(dealer.cards) < 17 or (option(hit_soft_17) and total(dealer.cards) == 17 and soft(dealer.cards)))
    cite: § 961.10(a)
    steps:
      - id: dealer_hits
        do: repeat
        until: total(dealer.cards) >= 17 and not (option(hit_soft_17) and total(dealer.cards) == 17 and soft(dealer.cards))
        bound: 20
        cite: § 961.10(a)
        steps:
          - {id: dealer_card, do: deal, to: dealer, zone: hits, count: 1, face: up, cite: § 961.10(a)}
''')


def bj_player_until(text: str) -> str:
    """The player's drawing written with ``until`` (the hand under 21 a condition of the players it runs for),
    and the choices listed hit first."""
    text = sub(text, "    players: active() and not placed(double) and not (flag(split) and points(card(player.hand, 1)) == 1)\n"
                     "    while: total(player.hand) < 21 and not chose(hit_or_stand, stand)\n",
               "    players: active() and not placed(double) and not (flag(split) and points(card(player.hand, 1)) == 1)"
               " and total(player.hand) < 21\n    until: total(player.hand) >= 21 or chose(hit_or_stand, stand)\n")
    return sub(text, "          - {id: stand, cite: § 961.8(c)}\n          - {id: hit, cite: § 961.8(c)}\n",
               "          - {id: hit, cite: § 961.8(c)}\n          - {id: stand, cite: § 961.8(c)}\n")

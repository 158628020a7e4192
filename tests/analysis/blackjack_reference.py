"""An independent blackjack calculator for the figure of the Blackjack test chapter (NOT official text:
tests/fixtures/chapters/blackjack.yaml), written from the rules as a person states them, not from the
rulespec, for the same stated method as the draw walk (compiler/analysis/draw_walk.py):

1. the player's cards drawn from the shoe less every card seen (composition-dependent by hand);
2. the dealer's play valued from the shoe at the player's first decision (less the player's first two
   cards and the up card), the hole card restricted by the peek;
3. a hand made by a split drawing from the shoe at the split, only the number of hands followed.

Rules: one card to the player, the up card, a second card to the player, the hole card; insurance (half
the wager, 2 to 1) with an ace up; the dealer peeks with an ace or ten up; a two-card 21 pays 3 to 2; double
on any two cards, after splits too, not on split aces; split to ``hands`` hands, resplitting aces where
``resplit_aces``; split aces one card; the dealer stands on all 17s (or hits a soft 17).
Cards are points 1..10 (an ace 1), a composition maps points to counts.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache


def hand_total(cards) -> tuple[int, bool]:
    hard = sum(cards)
    soft = 1 in cards and hard + 10 <= 21
    return (hard + 10 if soft else hard), soft


class Blackjack:
    def __init__(self, composition: dict[int, int], hit_soft_17: bool = False, hands: int = 4,
                 resplit_aces: bool = True, exact: bool = True):
        # the numbers: Fractions, or floats only for a published comparison (every constant too: a float mixed with
        # a Fraction is converted on each operation, to the same float)
        self.ratio = Fraction if exact else (lambda n, d=1: n / d)
        self.full = tuple(composition.get(v, 0) for v in range(1, 11))
        self.h17, self.hands, self.rsa = hit_soft_17, hands, resplit_aces
        self.dealer = lru_cache(maxsize=None)(self._dealer)
        self.play = lru_cache(maxsize=None)(self._play)
        self.probs = lru_cache(maxsize=None)(self._probs)  # the same shoe is drawn from again and again

    # -- the shoe ------------------------------------------------------------------------------
    def _probs(self, removed) -> tuple[tuple[int, Fraction], ...]:
        left = [n - r for n, r in zip(self.full, removed)]
        total = sum(left)
        assert total > 0, "the shoe runs out"
        return tuple((v + 1, self.ratio(n, total)) for v, n in enumerate(left) if n > 0)

    @staticmethod
    def take(removed, *values):
        out = list(removed)
        for v in values:
            out[v - 1] += 1
        return tuple(out)

    # -- the dealer ----------------------------------------------------------------------------
    def _dealer(self, cards: tuple, removed: tuple) -> tuple:
        """{final total or 22 (bust): probability} of the dealer's draws from ``cards``."""
        t, soft = hand_total(cards)
        if t > 21:
            return ((22, self.ratio(1)),)
        if t > 17 or (t == 17 and not (self.h17 and soft)):
            return ((t, self.ratio(1)),)
        out: dict[int, Fraction] = {}
        for v, p in self.probs(removed):
            for f, q in self.dealer(tuple(sorted(cards + (v,))), self.take(removed, v)):
                out[f] = out.get(f, self.ratio(0)) + p * q
        return tuple(sorted(out.items()))

    def dealer_after_peek(self, up: int, base: tuple) -> dict[int, Fraction]:
        """The dealer's final totals, the hole card drawn from the shoe ``base`` (less the up card already), a
        hole card that makes a blackjack left out when the dealer peeks."""
        peek = up in (1, 10)
        holes = [(v, p) for v, p in self.probs(base) if not (peek and {up, v} == {1, 10})]
        norm = sum(p for _, p in holes)
        out: dict[int, Fraction] = {}
        for v, p in holes:
            for f, q in self.dealer(tuple(sorted((up, v))), self.take(base, v)):
                out[f] = out.get(f, self.ratio(0)) + p / norm * q
        return out

    # -- the player ----------------------------------------------------------------------------
    def stand(self, total: int, dealer: dict) -> Fraction:
        return sum((q * (1 if f == 22 or f < total else -1 if f > total else 0) for f, q in dealer.items()),
                   self.ratio(0))

    def _play(self, cards: tuple, removed: tuple, dealer_key, can_double: bool, can_hit: bool) -> Fraction:
        """The best value of a hand of one unit (not a blackjack) with ``cards`` (sorted)."""
        dealer = self._dealers[dealer_key]
        t, _ = hand_total(cards)
        best = self.stand(t, dealer)
        if can_double:
            dbl = self.ratio(0)
            for v, p in self.probs(removed):
                t2, _ = hand_total(cards + (v,))
                dbl += p * (-1 if t2 > 21 else self.stand(t2, dealer))
            best = max(best, 2 * dbl)
        if can_hit and t < 21:
            hit = self.ratio(0)
            for v, p in self.probs(removed):
                c2 = tuple(sorted(cards + (v,)))
                hit += p * (-1 if hand_total(c2)[0] > 21 else self.play(c2, self.take(removed, v), dealer_key,
                                                                         False, True))
            best = max(best, hit)
        return best

    def split(self, x: int, base: tuple, key) -> Fraction:
        """The value of splitting a pair of ``x`` (both hands), the shoe at the split less ``base``."""
        def hand(y: int) -> Fraction:
            if x == 1:  # split aces: one card each, no double
                return self.stand(hand_total((1, y))[0], self._dealers[key])
            return self.play(tuple(sorted((x, y))), self.take(base, y), key, True, True)

        probs = dict(self.probs(base))
        q = probs.get(x, self.ratio(0))
        pair_again = x != 1 or self.rsa
        plain = sum((p * hand(y) for y, p in probs.items() if y != x or not pair_again), self.ratio(0))
        if not pair_again:
            return 2 * plain
        held = hand(x)
        keep = held  # a pair kept after a split is played as any two cards (the same as one not offered)

        @lru_cache(maxsize=None)
        def f(h: int, k: int) -> Fraction:
            if k == 0:
                return self.ratio(0)
            if h >= self.hands:
                return k * held
            again = sum(((1, 2, 1)[n] * q ** n * (1 - q) ** (2 - n) * f(h + 1, k - 1 + n) for n in range(3)),
                        self.ratio(0))
            return max(keep + f(h, k - 1), 2 * plain + again)
        return 2 * plain + sum(((1, 2, 1)[n] * q ** n * (1 - q) ** (2 - n) * f(2, n) for n in range(3)), self.ratio(0))

    # -- the round -----------------------------------------------------------------------------
    def seen(self, p1: int, up: int, p2: int) -> tuple:
        """(the shoe less the three cards seen, the dealer's key, the chance of the dealer's blackjack when peeking)."""
        base = self.take((0,) * 10, p1, up, p2)
        key = (up, base)
        if key not in self._dealers:
            self._dealers[key] = self.dealer_after_peek(up, base)
        peek = up in (1, 10)
        return base, key, sum((p for v, p in self.probs(base) if peek and {up, v} == {1, 10}), self.ratio(0))

    def two_cards(self, p1: int, p2: int, base, key) -> Fraction:
        """The value of a two-card hand that is not a blackjack once the dealer has none: its play, or a split
        of a pair (a variant adds its own choices here: late surrender)."""
        rest = self.play(tuple(sorted((p1, p2))), base, key, True, True)
        if p1 == p2:
            rest = max(rest, self.split(p1, base, key))
        return rest

    def situation(self, p1: int, up: int, p2: int) -> Fraction:
        base, key, p_bj = self.seen(p1, up, p2)
        natural = {p1, p2} == {1, 10}
        rest = self.ratio(3, 2) if natural else self.two_cards(p1, p2, base, key)
        value = p_bj * (0 if natural else -1) + (1 - p_bj) * rest
        if up == 1:  # insurance: half the wager, 2 to 1
            value = max(value, value + p_bj * 1 + (1 - p_bj) * self.ratio(-1, 2))
        return value

    def expected(self) -> Fraction:
        self._dealers: dict = {}
        zero = (0,) * 10
        out = self.ratio(0)
        for p1, a in self.probs(zero):
            for up, b in self.probs(self.take(zero, p1)):
                for p2, c in self.probs(self.take(zero, p1, up)):
                    out += a * b * c * self.situation(p1, up, p2)
        return out


class StakedBlackjack(Blackjack):
    """The same calculator carrying, beside each value, the expected amount staked (the unit wager, doubles, the
    split hands' wagers, insurance), written as pairs ``(net, staked)``: the choice taken is the one of largest
    expected net, of equal ones the smaller stake (the draw walk's stated play). ``expected()`` gives the pair
    for the round; the house edge per amount wagered is ``net / staked``."""

    @staticmethod
    def best(*pairs):
        return max(pairs, key=lambda p: (p[0], -p[1]))

    @staticmethod
    def add(*pairs):
        return (sum(p[0] for p in pairs), sum(p[1] for p in pairs))

    @staticmethod
    def scale(k, pair):
        return (k * pair[0], k * pair[1])

    def _play(self, cards, removed, dealer_key, can_double, can_hit):
        dealer = self._dealers[dealer_key]
        t, _ = hand_total(cards)
        options = [(self.stand(t, dealer), self.ratio(1))]
        if can_double:
            dbl = self.ratio(0)
            for v, p in self.probs(removed):
                t2, _ = hand_total(cards + (v,))
                dbl += p * (-1 if t2 > 21 else self.stand(t2, dealer))
            options.append((2 * dbl, self.ratio(2)))
        if can_hit and t < 21:
            hit = (self.ratio(0), self.ratio(0))
            for v, p in self.probs(removed):
                c2 = tuple(sorted(cards + (v,)))
                after = ((self.ratio(-1), self.ratio(1)) if hand_total(c2)[0] > 21 else
                         self.play(c2, self.take(removed, v), dealer_key, False, True))
                hit = self.add(hit, self.scale(p, after))
            options.append(hit)
        return self.best(*options)

    def split(self, x, base, key):
        def hand(y):
            if x == 1:
                return (self.stand(hand_total((1, y))[0], self._dealers[key]), self.ratio(1))
            return self.play(tuple(sorted((x, y))), self.take(base, y), key, True, True)

        probs = dict(self.probs(base))
        q = probs.get(x, self.ratio(0))
        pair_again = x != 1 or self.rsa
        plain = self.add((self.ratio(0), self.ratio(0)),
                         *(self.scale(p, hand(y)) for y, p in probs.items() if y != x or not pair_again))
        if not pair_again:
            return self.scale(2, plain)
        held = keep = hand(x)

        @lru_cache(maxsize=None)
        def f(h, k):
            if k == 0:
                return (self.ratio(0), self.ratio(0))
            if h >= self.hands:
                return self.scale(k, held)
            again = self.add(*(self.scale((1, 2, 1)[n] * q ** n * (1 - q) ** (2 - n), f(h + 1, k - 1 + n))
                               for n in range(3)))
            return self.best(self.add(keep, f(h, k - 1)), self.add(self.scale(2, plain), again))
        return self.add(self.scale(2, plain), *(self.scale((1, 2, 1)[n] * q ** n * (1 - q) ** (2 - n), f(2, n))
                                                for n in range(3)))

    def situation(self, p1, up, p2):
        base, key, p_bj = self.seen(p1, up, p2)
        if {p1, p2} == {1, 10}:
            rest = (self.ratio(3, 2), self.ratio(1))
        else:
            rest = self.play(tuple(sorted((p1, p2))), base, key, True, True)
            if p1 == p2:
                rest = self.best(rest, self.split(p1, base, key))
        lost = (self.ratio(0) if {p1, p2} == {1, 10} else self.ratio(-1), self.ratio(1))  # the dealer's blackjack
        value = self.add(self.scale(p_bj, lost), self.scale(1 - p_bj, rest))
        if up == 1:  # insurance: half the wager, 2 to 1
            value = self.best(value, (value[0] + p_bj - (1 - p_bj) * self.ratio(1, 2), value[1] + self.ratio(1, 2)))
        return value

    def expected(self):
        self._dealers = {}
        zero = (0,) * 10
        out = (self.ratio(0), self.ratio(0))
        for p1, a in self.probs(zero):
            for up, b in self.probs(self.take(zero, p1)):
                for p2, c in self.probs(self.take(zero, p1, up)):
                    out = self.add(out, self.scale(a * b * c, self.situation(p1, up, p2)))
        return out

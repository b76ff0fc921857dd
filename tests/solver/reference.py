"""A slow, independent reference: exact expected values by plain recursion over card sequences.

It shares nothing with the solver's arithmetic: hands are real card ints, hands are valued by
``cards.evaluate`` through ``engine.settlement`` and paid by ``settlement.showdown``, the banker
draws by ``StandOnBanker``'s rule or the dealer rule written out here, and every chance is a count
over the cards left. Only the solver's *policy* (its action tables) is read, to evaluate it.
"""

from __future__ import annotations

from functools import cache

from shoot_pontoon_env.cards import best_total, is_pontoon_pair
from shoot_pontoon_env.engine.hand import Hand
from shoot_pontoon_env.engine.settlement import Outcome, banker_rank, showdown
from shoot_pontoon_env.rules import Rules
from shoot_pontoon_env.solver import Solution
from shoot_pontoon_env.solver.solve import node_index
from shoot_pontoon_env.solver.space import BUY_BASE, DOUBLE, STICK, TWIST

CARD_OF_VALUE = [v * 4 for v in range(10)]  # value index -> a card int of that value


def _stands_on_21(cards: tuple[int, ...], rules: Rules) -> bool:
    """A 21 that may not draw: every 21 under "no", a hard one under "soft", none under "any"."""
    total, soft = best_total(cards)
    return total == 21 and (rules.draw_on_21 == "no" or (rules.draw_on_21 == "soft" and not soft))


def _banker_draws(cards: tuple[int, ...], rules: Rules) -> bool:
    total, soft = best_total(cards)
    if total > 21 or (len(cards) >= 5 and rules.banker_five_cards != "draw_on"):
        return False
    if rules.banker_play == "dealer":
        if total > rules.dealer_stands_on:
            return False
        if total == rules.dealer_stands_on:
            return soft and rules.dealer_hits_soft_17 and total == 17
        return True
    return total < 17  # StandOnBanker(17)


class Reference:
    def __init__(self, sol: Solution) -> None:
        self.sol = sol
        self.rules = sol.rules

    @cache  # noqa: B019 (one Reference per test: the cache dies with it)
    def banker(self, counts: tuple[int, ...], cards: tuple[int, ...]) -> tuple[tuple[object, float], ...]:
        """Final banker ranks with their chances (joint with no Pontoon under a peek), banker
        holding ``cards`` (sorted) with ``counts`` left."""
        rules = self.rules
        if len(cards) == 2 and rules.banker_peek and is_pontoon_pair(cards):
            return ()
        if len(cards) >= 2 and not _banker_draws(cards, rules):
            return ((banker_rank(list(cards), rules), 1.0),)
        n = sum(counts)
        out: dict[object, float] = {}
        for v, c in enumerate(counts):
            if c == 0:
                continue
            rest = counts[:v] + (c - 1,) + counts[v + 1:]
            for rank, p in self.banker(rest, tuple(sorted(cards + (CARD_OF_VALUE[v],)))):
                out[rank] = out.get(rank, 0.0) + p * c / n
        return tuple(out.items())

    def up_banker(self, counts: tuple[int, ...], up: int | None):
        return self.banker(counts, () if up is None else (CARD_OF_VALUE[up],))

    def no_pontoon(self, counts: tuple[int, ...], up: int | None) -> float:
        return sum(p for _, p in self.up_banker(counts, up)) if self.rules.banker_peek else 1.0

    def stand(self, counts, cards, stake, from_split, up) -> tuple[float, float]:
        hand = Hand(seat=1, box=0, original_stake=1, stake=stake, cards=list(cards), from_split=from_split)
        g = h = 0.0
        for rank, p in self.up_banker(counts, up):
            outcome, multiple = showdown(hand, rank, self.rules)
            sign = {Outcome.WIN: 1, Outcome.PUSH: 0, Outcome.LOSE: -1}[outcome]
            g += p * sign * multiple * stake
            h += p * sign
        return g, h

    def settle(self, counts, results, up) -> float:
        """Value of finished split hands against the banker: busts lose their stake (unless the peek
        ended the deal first), stood hands go to the showdown."""
        total = 0.0
        for res in results:
            if res[0] == "bust":
                total += -res[1] * self.no_pontoon(counts, up)
            else:
                total += self.stand(counts, res[2], res[1], True, up)[0]
        return total

    def play(self, counts, cards, state, ctx, from_split, up, results=None) -> tuple[float, float]:
        """(stake result, Shoot result) of the solver's policy from here, joint with no Pontoon."""
        rules, sol = self.rules, self.sol
        results = results if results is not None else sol.closed
        s, b, t, d = state
        total, _ = best_total(cards)
        if total > 21:
            nb = self.no_pontoon(counts, up)
            return -s * nb, -nb
        pontoon = len(cards) == 2 and is_pontoon_pair(cards) and (not from_split or rules.pontoon_after_split)
        if len(cards) >= 5 or pontoon or _stands_on_21(cards, rules) or (t and d):
            return self.stand(counts, cards, s, from_split, up)
        values = tuple(sorted(c // 4 for c in cards))
        flag = sol.flags.index[state]
        code = int(results[len(cards) - 1].act[ctx, node_index(values), flag])
        if code == STICK:
            assert total >= rules.stick_minimum
            return self.stand(counts, cards, s, from_split, up)
        if code == DOUBLE:
            return self.play(counts, cards, (2 * s, b, t, 1), ctx, from_split, up, results)
        if code == TWIST:
            nxt = (s, b, 1, d)
        else:
            a = code - BUY_BASE
            assert not t or rules.buy_after_twist
            nxt = (s + a, b + 1 if rules.max_buys is not None else 0, t, d)
        n = sum(counts)
        g = h = 0.0
        for v, c in enumerate(counts):
            if c:
                rest = counts[:v] + (c - 1,) + counts[v + 1:]
                gg, hh = self.play(rest, cards + (CARD_OF_VALUE[v],), nxt, ctx, from_split, up, results)
                g += gg * c / n
                h += hh * c / n
        return g, h


def full_counts(num_decks: int) -> list[int]:
    return [4 * num_decks] * 9 + [16 * num_decks]


def start_value(sol: Solution, values: tuple[int, int], up: int | None = None) -> tuple[float, float]:
    """Reference value of playing (not splitting) a two-card start, joint with no banker Pontoon."""
    ref = Reference(sol)
    counts = full_counts(sol.rules.num_decks)
    for v in values + ((up,) if up is not None else ()):
        counts[v] -= 1
    cards = tuple(CARD_OF_VALUE[v] for v in values)
    return ref.play(tuple(counts), cards, (1, 0, 0, 0), sol.context(up, None), False, up)


def split_hand_step(sol: Solution, ctx: int, cards: tuple[int, ...],
                    state: tuple[int, int, int, int]) -> tuple[int | None, tuple[int, int, int, int]]:
    """One decision of a split hand under the solver's split-hand policy: ``(None, state)`` for a
    bust, else the action code and the state after it (a stick keeps the state)."""
    rules = sol.rules
    s, b, t, d = state
    total, _ = best_total(cards)
    if total > 21:
        return None, state
    pontoon = len(cards) == 2 and is_pontoon_pair(cards) and rules.pontoon_after_split
    code = STICK
    if not (len(cards) >= 5 or pontoon or _stands_on_21(cards, rules) or (t and d)):
        values = tuple(sorted(c // 4 for c in cards))
        code = int(sol.closed[len(cards) - 1].act[ctx, node_index(values), sol.flags.index[state]])
    if code == STICK:
        return code, state
    if code == DOUBLE:
        return code, (2 * s, b, t, 1)
    if code == TWIST:
        return code, (s, b, 1, d)
    return code, (s + code - BUY_BASE, b + (rules.max_buys is not None), t, d)


def split_value_no_resplit(sol: Solution, pair: int, up: int | None = None) -> float:
    """Reference value of splitting a pair into exactly two hands, each played by the solver's
    split-hand policy: hand one's cards, then hand two's, then the banker, all from one shoe."""
    ref = Reference(sol)
    rules = sol.rules
    counts = full_counts(rules.num_decks)
    for v in (pair, pair) + ((up,) if up is not None else ()):
        counts[v] -= 1
    ctx = sol.context(up, pair)
    p_card = CARD_OF_VALUE[pair]

    def hand_then(counts, cards, state, after):
        """Play one split hand by the policy, then call ``after(counts, result_so_far)``."""
        code, nxt = split_hand_step(sol, ctx, cards, state)
        if code is None:
            return after(counts, ("bust", state[0]))
        if code == STICK:
            return after(counts, ("stand", state[0], cards))
        if code == DOUBLE:
            return hand_then(counts, cards, nxt, after)
        n = sum(counts)
        out = 0.0
        for v, c in enumerate(counts):
            if c:
                rest = counts[:v] + (c - 1,) + counts[v + 1:]
                out += c / n * hand_then(rest, cards + (CARD_OF_VALUE[v],), nxt, after)
        return out

    def second_hand(counts, first):
        n = sum(counts)
        out = 0.0
        for v, c in enumerate(counts):
            if c:
                rest = counts[:v] + (c - 1,) + counts[v + 1:]
                out += c / n * hand_then(rest, (p_card, CARD_OF_VALUE[v]), (1, 0, 0, 0),
                                         lambda cc, second: ref.settle(cc, [first, second], up))
        return out

    n = sum(counts)
    total = 0.0
    counts_t = tuple(counts)
    for v, c in enumerate(counts_t):
        if c:
            rest = counts_t[:v] + (c - 1,) + counts_t[v + 1:]
            total += c / n * hand_then(rest, (p_card, CARD_OF_VALUE[v]), (1, 0, 0, 0), second_hand)
    return total


def split_value(sol: Solution, pair: int, up: int | None = None) -> float:
    """Reference value of splitting a pair with the solution's resplit plan, every split hand
    played by the split-hand policy, cards dealt in the engine's order: a hand's second card
    (resplitting a matching one while the box has room), its draws, then the next hand; the banker
    last. Pairs match by value here: use it for value-matching rules or pairs below ten."""
    ref = Reference(sol)
    rules = sol.rules
    resplit = sol.splits[(up, pair)].resplit
    cap = rules.max_split_hands if resplit else 2
    counts = full_counts(rules.num_decks)
    for v in (pair, pair) + ((up,) if up is not None else ()):
        counts[v] -= 1
    ctx = sol.context(up, pair)
    p_card = CARD_OF_VALUE[pair]

    def draw(counts, fn):
        n = sum(counts)
        out = 0.0
        for v, c in enumerate(counts):
            if c:
                out += c / n * fn(counts[:v] + (c - 1,) + counts[v + 1:], v)
        return out

    def play(counts, cards, state, hands, done):
        """Play the current split hand; ``hands``: boxes' hands so far; ``done``: finished results."""
        code, nxt = split_hand_step(sol, ctx, cards, state)
        if code is None:
            return next_hand(counts, hands, done + (("bust", state[0]),))
        if code == STICK:
            return next_hand(counts, hands, done + (("stand", state[0], cards),))
        if code == DOUBLE:
            return play(counts, cards, nxt, hands, done)
        return draw(counts, lambda rest, v: play(rest, cards + (CARD_OF_VALUE[v],), nxt, hands, done))

    def second_card(counts, hands, done):
        def take(rest, v):
            if v == pair and hands < cap:
                return second_card(rest, hands + 1, done)
            return play(rest, (p_card, CARD_OF_VALUE[v]), (1, 0, 0, 0), hands, done)
        return draw(counts, take)

    def next_hand(counts, hands, done):
        if len(done) < hands:
            return second_card(counts, hands, done)
        return ref.settle(counts, done, up)

    return second_card(tuple(counts), 2, ())

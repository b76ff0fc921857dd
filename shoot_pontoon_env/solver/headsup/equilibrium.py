"""The equilibrium of heads-up Shoot Pontoon (the reduced game of ``equilibrium_game``), and its
exploitability measured by the best-response code that measures every other pair.

:func:`solve_equilibrium` runs CFR+ (``cfr``) on the reduced game; :func:`measure` then takes the
average strategies as players of ``best_response``'s model and computes, with its functions:

- the pair's value: ``best_banker.evaluate`` of the punter's rows (``game_punter.punter_rows``, the
  punter asked through its ``SeatView``) against the banker's chances of drawing;
- the banker's best response: ``evaluate`` on the rows as they are (the ``SeatView`` banker, who
  also sees the order of the twisted cards, as ``best_response.exploitability`` measures every other
  pair: ``Measured.exploitability``); and on those rows with each observation as the flat
  observation shows it (twisted cards as a multiset: :func:`multiset_rows`), the banker's information
  in the reduced game (``Measured.exploitability_reduced_game``, the certificate in that game);
- the punter's best response: ``best_punter.punter_response`` (a punter who knows which cards it
  twisted; the model's, exact, over the reduced game's Shoot bets where it has them: nothing or the
  allowance at each point, ``shoot_equilibrium_rules``).

Two punters (``recall``):

- ``"perfect"``: the punter's information is its state (its cards and which of them it twisted), as
  in the ``SeatView`` and the best responses. A two-player zero-sum game of perfect recall, where CFR+
  converges and the exploitability certifies the equilibrium.
- ``"observation"``: the punter decides on what its flat observation shows, which does not say which
  of its cards were twisted (``seat/encoding.py`` drops card order). A game of imperfect recall: CFR+
  has no guarantee there, and the exploitability (against the perfect-recall punter's best response)
  is an upper bound. This is the punter the ``equilibrium`` agent can play from its observation.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...actions import Action, ActionKind
from ...engine.table import Phase
from ...engine.view import SeatView
from ...rules import Rules, get_rules
from ...players.policy import Policy
from .banker_views import observation_draws, strategy_draws
from .best_banker import Decisions, evaluate
from .best_punter import punter_response
from .best_response import PairGains, punter_best_response
from .cfr import CFRResult, Profile, solve_cfr
from .equilibrium_game import (
    BEFORE_DEAL, HeadsUpGame, build_game, check_equilibrium_rules, first_card_key, sorted_observation)
from .punter_tree import offer_key, state_key
from .game_banker import banker_space
from .game_punter import HandKey, PunterRows, observation_of, punter_rows, strategy_policy, value_index
from ..space import NUM_VALUES

RECALLS = ("perfect", "observation")
DEFAULT_ITERATIONS = {"perfect": 100, "observation": 100}


@dataclass
class Equilibrium:
    """Average CFR+ strategies of both seats of a reduced game."""

    game: HeadsUpGame
    recall: str
    cfr: CFRResult

    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def profile(self) -> Profile:
        return self.cfr.profile

    def __post_init__(self) -> None:
        g = self.game
        self._info = {k: i for i, k in enumerate(g.infos)}
        self._obs = {o: i for i, o in enumerate(g.observations)}
        self._ia_of_info: list[list[int]] = [[] for _ in g.infos]
        for ia, info in enumerate(g.ia_info.tolist()):
            self._ia_of_info[info].append(ia)

    # ------------------------------------------------------------------ the punter
    def punter_key(self, values: list[int], stake: int, buys: int, twists: int, shoot_bet: int = 0) -> tuple:
        """The information set of a punter hand of these card values (in the order dealt; with
        ``recall="observation"`` only their multiset is used) and this Shoot bet riding."""
        counts = tuple(values.count(v) for v in range(NUM_VALUES))
        if self.recall == "observation":
            return state_key((counts, stake, buys, twists), shoot_bet)
        twisted = values[len(values) - twists:] if twists else []
        hidden = tuple(values[:len(values) - twists].count(v) for v in range(NUM_VALUES))
        return state_key((hidden, stake, buys, tuple(sorted(twisted))), shoot_bet)

    def shoot_bet_key(self, view: SeatView) -> tuple:
        """The information set of the Shoot bet the punter is offered at ``view``."""
        hand = view.current_hand
        if view.shoot_bet_point == "before_deal" or hand is None:
            return BEFORE_DEAL
        if view.shoot_bet_point == "before_second_card":
            return first_card_key(value_index(hand.cards[0]), hand.shoot_bet)
        return offer_key(self.punter_key([value_index(c) for c in hand.cards], hand.stake, hand.buys, hand.twists,
                                         hand.shoot_bet))

    def punter_actions(self, key: tuple) -> dict[Action, float]:
        """The chance of each action at an information set (KeyError for one the game lacks)."""
        info = self._info[key]
        return {self.game.ia_action[ia]: float(self.profile.punter[ia]) for ia in self._ia_of_info[info]}

    def punter_policy(self, view: SeatView) -> dict[Action, float]:
        """The punter's mixed action at ``view`` (a ``game_punter.PunterPolicy``)."""
        kinds = {m.kind for m in view.legal}
        if ActionKind.STAKE in kinds:
            if any(m.low == 0 for m in view.legal):  # the engine asks a seat with no chips to sit out
                return {Action(ActionKind.STAKE, 0): 1.0}
            return {Action(ActionKind.STAKE, self.game.stake): 1.0}
        if ActionKind.SHOOT_BET in kinds and not self.game.betting:
            return {Action(ActionKind.SHOOT_BET, 0): 1.0}
        hand = view.current_hand
        if ActionKind.SHOOT_BET in kinds:
            key = self.shoot_bet_key(view)
        elif hand is None:
            raise ValueError(f"equilibrium punter: no hand to play in phase {view.phase!r}")
        else:
            key = self.punter_key([value_index(c) for c in hand.cards], hand.stake, hand.buys, hand.twists,
                                  hand.shoot_bet)
        try:
            return {a: p for a, p in self.punter_actions(key).items() if p > 0}
        except KeyError:
            raise ValueError(f"equilibrium punter: the hand {key} is not a state of the reduced game "
                             f"{self.rules.name!r}") from None

    # ------------------------------------------------------------------ either seat
    def distribution(self, view: SeatView) -> dict[Action, float]:
        """The mixed action of the seat whose ``view`` this is: the punter's :meth:`punter_policy`; the
        banker keeps the bank, stands where it may not draw, and else draws with :meth:`draw_chance`."""
        if not view.is_banker:
            return self.punter_policy(view)
        if view.phase == Phase.BANK_DECISION:
            return {Action(ActionKind.KEEP_BANK): 1.0}
        kinds = {m.kind for m in view.legal}
        if ActionKind.TWIST not in kinds or all(h.settled for h in view.hands):
            return {Action(ActionKind.STICK): 1.0}
        values = tuple(sorted(value_index(c) for c in view.banker_cards))
        p = self.draw_chance(values, observation_of(view.hands))
        choices = ((Action(ActionKind.TWIST), p), (Action(ActionKind.STICK), 1.0 - p))
        return {a: q for a, q in choices if q > 0}

    # ------------------------------------------------------------------ the banker
    def _column(self, observation: tuple) -> int:
        """The reduced game's observation index of ``observation`` (ordered or not; ValueError if
        the game has none)."""
        o = self._obs.get(sorted_observation(observation))
        if o is None:
            raise ValueError(f"equilibrium banker: the punter's box {observation} is not one of the reduced "
                             f"game {self.rules.name!r}")
        return o

    def draw_chance(self, values: tuple[int, ...], observation: tuple) -> float:
        """The chance the banker draws holding ``values`` facing ``observation`` (a ``game_punter``
        observation of the punter's box, its twisted cards ordered or not)."""
        space = self.game.space
        m, i = space.index(values)
        if not space.levels[m].can_draw[i]:
            return 0.0
        return float(self.profile.banker[m][i, self._column(observation)])

    def banker_draws(self, observations: list[tuple]) -> Decisions:
        """The banker's chances of drawing (level -> (n_m, n_O) floats) for the observations of another
        model of the punter's box (``game_punter`` or ``best_punter``; bust boxes: 0)."""
        columns = np.full(len(observations), -1, dtype=np.int64)
        for j, o in enumerate(observations):
            if not settled_observation(o):
                columns[j] = self._column(o)
        out = {}
        for m, p in self.profile.banker.items():
            pad = np.hstack([p, np.zeros((p.shape[0], 1))])
            out[m] = pad[:, columns]
        return out


class EquilibriumPlayer(Policy):
    """One seat of an :class:`Equilibrium` at an engine table, from the seat's whole view (the punter
    with perfect recall: it knows which of its cards it twisted, as ``recall="perfect"`` solves it):
    each action drawn from :meth:`Equilibrium.distribution` with the Generator the table hands it.
    The engine's Monte Carlo of the pair, where the ``equilibrium`` agent (from the flat observation)
    does not reach: a game with Shoot bets."""

    name = "equilibrium"

    def __init__(self, equilibrium: Equilibrium) -> None:
        self.equilibrium = equilibrium

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        dist = self.equilibrium.distribution(view)
        actions = list(dist)
        if len(actions) == 1:
            return actions[0]
        p = np.array([dist[a] for a in actions])
        return actions[int(rng.choice(len(actions), p=p / p.sum()))]


def settled_observation(observation) -> bool:
    """A bust box (``best_punter``'s bust observation, or ``game_punter``'s settled hands): the
    banker does not play."""
    if observation and observation[0] and observation[0][0] == "bust":
        return True
    width = len(HandKey._fields)
    return bool(observation) and all(isinstance(h, tuple) and len(h) == width and HandKey(*h).settled
                                     for h in observation)


def solve_equilibrium(rules: Rules | str, iterations: int | None = None, recall: str = "perfect",
                      target_gap: float | None = None, check_every: int = 25,
                      log: Callable[[str], None] | None = None) -> Equilibrium:
    """CFR+ on the reduced game ``rules`` (see ``equilibrium_game.check_equilibrium_rules``)."""
    if recall not in RECALLS:
        raise ValueError(f"recall={recall!r}: expected one of {RECALLS}")
    rules = get_rules(rules)
    check_equilibrium_rules(rules, shoot_bets=True)
    if iterations is None:
        iterations = DEFAULT_ITERATIONS[recall]
    if iterations < 1:
        raise ValueError(f"iterations={iterations}: expected at least 1")
    game = build_game(rules, perfect_recall=recall == "perfect")
    result = solve_cfr(game, iterations, check_every, target_gap, log)
    result.profile = prune(game, result.profile, PRUNE)
    return Equilibrium(game, recall, result)


PRUNE = 1e-3
"""Punter actions the average strategy plays with a smaller chance are dropped (the rest scaled up):
CFR+'s averages keep a trace of every action, and the pair is measured (and played) as pruned."""


def prune(game: HeadsUpGame, profile: Profile, threshold: float) -> Profile:
    """``profile`` with the punter's actions of chance below ``threshold`` at their information set
    dropped and the others renormalised (an information set keeps its likeliest action)."""
    p = profile.punter.copy()
    best = np.zeros(len(game.infos))
    np.maximum.at(best, game.ia_info, p)
    keep = (p >= threshold) | (p >= best[game.ia_info])
    p = np.where(keep, p, 0.0)
    total = np.bincount(game.ia_info, weights=p, minlength=len(game.infos))
    return Profile(p / total[game.ia_info], profile.banker)


def multiset_rows(rows: PunterRows) -> PunterRows:
    """``rows`` with each observation as the flat observation shows it (twisted cards as a multiset),
    merged and re-sorted, for the banker's best response on that information."""
    new = [sorted_observation(o) for o in rows.observations]
    merged = sorted(set(new))
    index = {o: i for i, o in enumerate(merged)}
    mapped = np.array([index[o] for o in new], dtype=np.int64)
    obs_index = mapped[rows.obs_index]
    order = np.argsort(obs_index, kind="stable")
    settled = np.zeros(len(merged), dtype=bool)
    settled[mapped] = rows.all_settled
    return PunterRows(rules=rows.rules, stake=rows.stake, shoot_bet=rows.shoot_bet, observations=merged,
                      obs_index=obs_index[order], counts=rows.counts[order], payoff=rows.payoff[order],
                      all_settled=settled, peek_counts=rows.peek_counts, peek_payoff=rows.peek_payoff,
                      shoot=rows.shoot)


@dataclass(frozen=True)
class Measured(PairGains):
    """An equilibrium's pair as players of ``best_response``'s model, per unit of initial stake.

    Two bankers' best responses: the ``SeatView`` banker's (who also sees the order of the punter's
    twisted cards), as ``best_response.exploitability`` measures every other pair, gives
    :attr:`exploitability`; the reduced game's banker (the flat observation: twisted cards as a
    multiset) gives :attr:`exploitability_reduced_game`, the equilibrium's certificate in its own game.
    """

    rules: str
    recall: str
    iterations: int
    pair_value: float
    banker_best_response: float
    """The punter's value against the best response of the ``SeatView`` banker, who sees the order
    of the twisted cards (as ``best_response.exploitability``'s banker)."""
    banker_best_response_reduced_game: float
    """The same for the reduced game's banker, on the flat observation's information (twisted cards
    as a multiset)."""
    punter_best_response: float
    """The best value of a punter who knows which cards it twisted."""
    solve_seconds: float
    measure_seconds: float
    cfr_gap: float
    sizes: dict

    @property
    def banker_gain_reduced_game(self) -> float:
        """What the reduced game's banker's best response gains over the pair."""
        return self.pair_value - self.banker_best_response_reduced_game

    @property
    def exploitability_reduced_game(self) -> float:
        """The mean of the two gains with the reduced game's banker (the flat observation's): the
        certificate of the equilibrium in the game CFR+ solves (at most :attr:`exploitability`)."""
        return (self.banker_gain_reduced_game + self.punter_gain) / 2

    def to_dict(self) -> dict:
        """The JSON object of the CLI."""
        return {"rules": self.rules, "recall": self.recall, "iterations": self.iterations,
                "game_value": self.pair_value, "exploitability": self.exploitability,
                "banker_best_response_value": self.banker_best_response,
                "punter_best_response_value": self.punter_best_response,
                "banker_gain": self.banker_gain, "punter_gain": self.punter_gain,
                "exploitability_reduced_game": self.exploitability_reduced_game,
                "banker_best_response_value_reduced_game": self.banker_best_response_reduced_game,
                "banker_gain_reduced_game": self.banker_gain_reduced_game,
                "cfr_gap": self.cfr_gap, "solve_seconds": self.solve_seconds,
                "measure_seconds": self.measure_seconds, "sizes": self.sizes}


def measure(eq: Equilibrium) -> Measured:
    """The exploitability of ``eq`` by the best-response code (see the module doc)."""
    begin = time.perf_counter()
    rules = eq.rules
    space = banker_space(rules)
    rows = punter_rows(rules, eq.punter_policy)
    pair = evaluate(rows, space, eq.banker_draws(rows.observations)).value
    banker_reduced = evaluate(multiset_rows(rows), space).value
    banker_seat = evaluate(rows, space).value
    punter_best = punter_response(rules, lambda obs, live: eq.banker_draws(obs), space, eq.game.totals).value
    return Measured(rules.name, eq.recall, eq.cfr.iterations, pair, banker_seat, banker_reduced, punter_best,
                    eq.cfr.seconds, time.perf_counter() - begin, eq.cfr.gap, eq.game.sizes)


@dataclass(frozen=True)
class MixedPair(PairGains):
    """A pair in the reduced game where one seat (or both) plays the equilibrium, per unit stake."""

    punter: str
    banker: str
    pair_value: float
    banker_best_response: float
    """Against the ``SeatView`` banker's best response (as every pair of ``best_response``)."""
    punter_best_response: float
    """Exact in the reduced game: over its Shoot bets where it has them (nothing or the allowance)."""

    def to_dict(self) -> dict:
        return {"punter": self.punter, "banker": self.banker, "exploitability": self.exploitability,
                "pair_value": self.pair_value, "banker_best_response_value": self.banker_best_response,
                "punter_best_response_value": self.punter_best_response, "banker_gain": self.banker_gain,
                "punter_gain": self.punter_gain}


def measure_pair(eq: Equilibrium, punter: Policy | None = None, banker: Policy | None = None) -> MixedPair:
    """The exploitability, in ``eq``'s reduced game, of ``punter`` against ``banker`` where either is
    a rule-based player (a deterministic Policy) and None is the equilibrium's seat, by the
    functions :func:`measure` uses (so ``measure_pair(eq)`` is :func:`measure`'s pair)."""
    rules = eq.rules
    space = banker_space(rules)
    rows = punter_rows(rules, eq.punter_policy if punter is None else strategy_policy(punter))
    draws = eq.banker_draws(rows.observations) if banker is None else strategy_draws(banker, rows, space)
    if banker is None:
        punter_best = punter_response(rules, lambda obs, live: eq.banker_draws(obs), space, eq.game.totals).value
    elif eq.game.betting:  # the punter's best response over the game's bets (nothing or the allowance)
        punter_best = punter_response(rules, lambda obs, live: observation_draws(banker, rules, obs, live, space),
                                      space, eq.game.totals).value
    else:
        punter_best = punter_best_response(banker, rules)
    name = "equilibrium"
    return MixedPair(getattr(punter, "name", name) if punter else name, getattr(banker, "name", name) if banker
                     else name, evaluate(rows, space, draws).value, evaluate(rows, space).value, punter_best)


__all__ = ["DEFAULT_ITERATIONS", "Equilibrium", "EquilibriumPlayer", "Measured", "MixedPair", "RECALLS", "measure", "measure_pair", "settled_observation",
           "multiset_rows", "solve_equilibrium"]

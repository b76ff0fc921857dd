"""An OpenSpiel policy of the heads-up reduced game measured by this project's exact best-response code.

The solver's heads-up model (``solver/headsup/``) asks each seat through the :class:`SeatView` it would
have at a table: the punter at every decision of its box, the banker at each of its hands facing each
box it can see. Here each such question is put to an OpenSpiel policy at an OpenSpiel state of
``python_shoot_pontoon`` rebuilt to show that seat exactly that view (:class:`ViewStates`): the same
stake, the same cards in the same order, the same line of play. The model's views show card values, a
ten-value card as the Ten of clubs and every card as clubs; a state deals real cards, so each value
becomes the first card of that value the stock still holds (the Ten before the Jack, clubs before
diamonds), and the cards a seat cannot see (the banker's hole cards when the punter is asked, the
punter's face-down cards when the banker is) are the first that make the line of play legal. The
model's banker does not see the order of its own cards: it is asked at the first order its draws reach
(ascending first two cards). These are the model's own representative views (``banker_views``), so a
policy that decides on card order, suit or a hidden card's rank is measured as it plays at them.

Covered: the heads-up reduced game without buys (``python_shoot_pontoon(players=2,reduced=True,
max_buys=0)``, seat 0 the banker); the values are per unit stake, as every exploitability here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import combinations_with_replacement, permutations
from typing import Any

import numpy as np
import pyspiel

from ..actions import Action, ActionKind
from ..cards import best_total
from ..engine.view import SeatView, seat_view
from ..solver.headsup.best_banker import Decisions, evaluate
from ..solver.headsup.best_punter import punter_response
from ..solver.headsup.best_response import PairGains
from ..solver.headsup.equilibrium import settled_observation
from ..solver.headsup.equilibrium_game import check_equilibrium_rules
from ..solver.headsup.game_banker import banker_space
from ..solver.headsup.game_punter import HandKey, Observation, card_of, hand_key, punter_rows, value_index
from ..solver.space import ACE, NUM_VALUES, TEN
from .game import ShootPontoonGame

BANKER, PUNTER = 0, 1
Probabilities = Callable[[pyspiel.State, int], Mapping[int, float]]
"""A policy as a function of an OpenSpiel state and the player to act: the chance of each action index."""
FILLERS = (4, 5, 6, 3, 7, 2, 8, 1)
"""Values for the banker's hole cards when the punter is asked: none makes a Pontoon with another."""


def as_probabilities(policy: Any) -> Probabilities:
    """``policy`` as a :data:`Probabilities`: an OpenSpiel ``policy.Policy`` (its ``action_probabilities``)
    or a function of (state, player) already."""
    if hasattr(policy, "action_probabilities"):
        return lambda state, player: policy.action_probabilities(state, player)
    if callable(policy):
        return policy
    raise TypeError(f"policy {policy!r}: expected an OpenSpiel policy.Policy or a function (state, player) -> "
                    "{action: probability}")


def check_game(game: ShootPontoonGame) -> None:
    """A ValueError naming each way ``game`` is not the heads-up reduced game without buys."""
    settings = game.settings
    problems = []
    if settings.players != 2 or settings.seats != 2:
        problems.append(f"players={settings.players}, seats={settings.seats} (expected 2 and 2: heads-up)")
    if settings.deals != 1 or settings.table.first_banker != BANKER:
        problems.append(f"deals={settings.deals}, first_banker={settings.table.first_banker} (expected 1 and 0)")
    if settings.rules.buys_allowed:
        problems.append("buys are allowed (expected max_buys=0)")
    try:
        check_equilibrium_rules(settings.rules)
    except ValueError as error:
        problems.append(str(error))
    if problems:
        raise ValueError("the game is not the heads-up reduced game without buys "
                         "(python_shoot_pontoon(players=2,reduced=True,max_buys=0)): " + "; ".join(problems))


class ViewStates:
    """OpenSpiel states of ``game`` rebuilt from the heads-up model's views (see the module doc)."""

    def __init__(self, game: ShootPontoonGame) -> None:
        check_game(game)
        self.game = game
        self.actions = game.settings.table.config.action_table
        self._hidden: dict[HandKey, list[tuple[int, ...]]] = {}
        held = [v for v, n in enumerate(game.settings.rules.value_counts) if n]
        pairs = [(4, 5), (2, 3), (6, 7)] + [p for p in combinations_with_replacement(held, 2) if set(p) != {ACE, TEN}]
        self._fillers = [pair for pair in pairs if set(pair) <= set(held)][:3]
        """Banker's two cards a punter's line is tried against (no Pontoon; values the pack holds)."""

    # ------------------------------------------------------------------ moves
    def deal(self, state: pyspiel.State, value: int) -> bool:
        """Deal the first card of ``value`` the stock holds (False: none is left, or no card is wanted)."""
        if not state.is_chance_node():
            return False
        ranks = range(9, 13) if value == TEN else (value,)
        for card, _ in state.chance_outcomes():
            if card // 4 in ranks:
                state.apply_action(card)
                return True
        return False

    def index_of(self, state: pyspiel.State, action: Action) -> int | None:
        """The action index of ``action`` for the player to act (None: not legal now)."""
        player = state.current_player()
        if player < 0:
            return None
        view = seat_view(state.table, player)
        for index in state.legal_actions(player):
            if self.actions.to_action(index, view) == action:
                return index
        return None

    def draw(self, state: pyspiel.State, values: tuple[int, ...] | list[int]) -> bool:
        """The player to act twists and is dealt each of ``values`` in turn (False where one cannot be)."""
        return all(self.play(state, Action(ActionKind.TWIST)) and self.deal(state, value) for value in values)

    def play(self, state: pyspiel.State, action: Action) -> bool:
        index = self.index_of(state, action)
        if index is None:
            return False
        state.apply_action(index)
        return True

    def opening(self, stake: int, punter: tuple[int, int], banker: tuple[int, int]) -> pyspiel.State | None:
        """A state after the punter's stake and the first four cards (None where they cannot be dealt or the
        banker's peek ends the deal; after a punter's Pontoon the banker is to act)."""
        state = self.game.new_initial_state()
        if not self.play(state, Action(ActionKind.STAKE, stake)):
            return None
        for value in (punter[0], banker[0], punter[1], banker[1]):
            if not self.deal(state, value):
                return None
        return state if state.current_player() in (PUNTER, BANKER) else None

    # ------------------------------------------------------------------ the punter's questions
    def punter_state(self, view: SeatView) -> pyspiel.State:
        """A state at which the punter sees ``view`` (a decision of its one hand)."""
        hand = view.current_hand
        values = [value_index(c) for c in hand.cards]
        if hand.buys:
            raise ValueError("the reduced game without buys has no bought card")
        for filler in combinations_with_replacement(FILLERS, 2):
            state = self.opening(hand.original_stake, (values[0], values[1]), filler)
            if state is not None and self.draw(state, values[2:]) and state.current_player() == PUNTER:
                return state
        raise ValueError(f"no state of the game shows the punter the hand {hand.cards} (stake {hand.stake})")

    # ------------------------------------------------------------------ the banker's questions
    def box_state(self, observation: Observation, banker: tuple[int, ...]) -> pyspiel.State | None:
        """A state at the banker's decision holding ``banker`` (its values in dealing order: two dealt, the
        rest drawn) facing the punter's box ``observation`` (None where no deal gives it). The punter's line
        of play is the first of :meth:`_lines` that leaves the cards for the banker's."""
        (key,) = observation
        key = HandKey(*key)
        for line in self._lines(key):
            if not self.fits(line + banker):
                continue
            state = self._box(key, line, (banker[0], banker[1]))
            if state is not None and self.draw(state, banker[2:]) and state.current_player() == BANKER:
                return state
        return None

    def fits(self, values: tuple[int, ...]) -> bool:
        """Whether the packs hold these card values together."""
        counts = self.game.settings.rules.value_counts
        return all(values.count(v) <= counts[v] for v in set(values))

    def _lines(self, key: HandKey) -> list[tuple[int, ...]]:
        """The punter's cards in dealing order that give the box ``key`` against some banker cards. Face-down
        cards are the first two (every pair of values is tried); a box shown whole (a Pontoon, a Five Card
        Trick: its values ascending) is tried in every order."""
        if key not in self._hidden:
            if key.hidden:
                candidates = [pair + tuple(key.visible) for pair in combinations_with_replacement(range(NUM_VALUES), 2)]
            else:
                candidates = sorted(set(permutations(key.visible)))
            rules = self.game.settings.rules
            candidates = [line for line in candidates if self.fits(line) and all(
                rules.may_draw_on(*best_total([card_of(v) for v in line[:n]])) for n in range(2, len(line)))]
            self._hidden[key] = [line for line in candidates
                                 if any(self._box(key, line, filler) is not None for filler in self._fillers)]
        return self._hidden[key]

    def _box(self, key: HandKey, line: tuple[int, ...], banker: tuple[int, int]) -> pyspiel.State | None:
        state = self.opening(key.original_stake, line[:2], banker)
        if state is None:
            return None
        if not self.draw(state, line[2:]):
            return None
        if state.current_player() == PUNTER and not self.play(state, Action(ActionKind.STICK)):
            return None
        if state.current_player() != BANKER:
            return None
        (seen,) = seat_view(state.table, BANKER).hands
        return state if hand_key(seen) == key else None


@dataclass(frozen=True)
class OpenSpielPair(PairGains):
    """An OpenSpiel policy's two seats measured by the best-response code, per unit stake."""

    pair_value: float
    banker_best_response: float
    punter_best_response: float

    def to_dict(self) -> dict:
        return {"exploitability": self.exploitability, "pair_value": self.pair_value,
                "banker_best_response_value": self.banker_best_response,
                "punter_best_response_value": self.punter_best_response,
                "banker_gain": self.banker_gain, "punter_gain": self.punter_gain}


class PolicyMeasure:
    """The exact best-response measurement of one OpenSpiel policy of ``game`` (both seats).

    ``punter_policy`` is the policy's punter as the model's punter policy (view -> action chances), and
    :meth:`banker_draws` its banker as the model's decisions (the chance of drawing at each banker hand
    facing each box), each question asked once."""

    def __init__(self, game: ShootPontoonGame, policy: Any) -> None:
        self.states = ViewStates(game)
        self.rules = game.settings.rules
        self.space = banker_space(self.rules)
        self.probabilities = as_probabilities(policy)
        self._punter: dict[tuple, dict[Action, float]] = {}
        self._columns: dict[Observation, dict[tuple[int, int], float]] = {}

    def _chances(self, state: pyspiel.State, player: int) -> dict[Action, float]:
        view = seat_view(state.table, player)
        chances: dict[Action, float] = {}
        for index, p in self.probabilities(state, player).items():
            if p > 0:
                action = self.states.actions.to_action(int(index), view)
                chances[action] = chances.get(action, 0.0) + float(p)
        return chances

    def punter_policy(self, view: SeatView) -> dict[Action, float]:
        hand = view.current_hand
        if hand is None:  # the stake (the reduced game has one) or a Shoot bet it has none of
            legal = {m.kind for m in view.legal}
            if ActionKind.STAKE in legal:
                return self._chances(self.states.game.new_initial_state(), PUNTER)
            return {Action(ActionKind.SHOOT_BET, 0): 1.0}
        key = (hand.original_stake, tuple(value_index(c) for c in hand.cards))
        if key not in self._punter:
            self._punter[key] = self._chances(self.states.punter_state(view), PUNTER)
        return self._punter[key]

    def banker_draws(self, observations: list[Observation], live: np.ndarray) -> Decisions:
        out = {m: np.zeros((len(lv.values), len(observations))) for m, lv in self.space.levels.items()}
        for o, observation in enumerate(observations):
            if not live[o] or settled_observation(observation):
                continue
            for (m, i), p in self._column(observation).items():
                out[m][i, o] = p
        return out

    def _column(self, observation: Observation) -> dict[tuple[int, int], float]:
        if observation in self._columns:
            return self._columns[observation]
        column: dict[tuple[int, int], float] = {}
        level = self.space.levels[2]
        for i, values in enumerate(level.values):
            if self.space.start[i] <= 0 or not level.can_draw[i]:
                continue
            state = self.states.box_state(observation, values)  # dealt in ascending order
            if state is not None:
                self._walk(state, observation, values, column)
        self._columns[observation] = column
        return column

    def _walk(self, state: pyspiel.State, observation: Observation, values: tuple[int, ...],
              column: dict[tuple[int, int], float]) -> None:
        """Ask the banker at ``state`` (holding ``values``) and at every hand its draws reach from there,
        each hand once (the first order that reaches it)."""
        node = self.space.index(values)
        if node in column:
            return
        twist = self._chances(state, BANKER).get(Action(ActionKind.TWIST), 0.0)
        column[node] = twist
        m, i = node
        level = self.space.levels[m]
        if twist <= 0 or m + 1 not in self.space.levels:
            return
        following = self.space.levels[m + 1]
        for value in range(NUM_VALUES):
            child = level.child[i, value]
            if child < 0 or not following.can_draw[child] or (m + 1, int(child)) in column:
                continue
            after = state.clone()
            if not self.states.draw(after, (value,)):
                after = None  # the punter's cards chosen took the card: another line of its play may leave it
            elif after.current_player() != BANKER:
                continue
            if after is None:
                after = self.states.box_state(observation, values + (value,))
            if after is not None:
                self._walk(after, observation, values + (value,), column)

    def measure(self) -> OpenSpielPair:
        """The pair's value, both seats' exact best responses, and so the exploitability."""
        rows = punter_rows(self.rules, self.punter_policy)
        pair = evaluate(rows, self.space, self.banker_draws(rows.observations, ~rows.all_settled)).value
        banker_best = evaluate(rows, self.space).value
        punter_best = punter_response(self.rules, self.banker_draws, self.space).value
        return OpenSpielPair(pair, banker_best, punter_best)


def exploitability(game: ShootPontoonGame | str, policy: Any) -> OpenSpielPair:
    """The exploitability of an OpenSpiel ``policy`` (both seats) of the heads-up reduced game without
    buys, measured by the best-response code (see the module doc)."""
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    return PolicyMeasure(game, policy).measure()


__all__ = ["OpenSpielPair", "PolicyMeasure", "Probabilities", "ViewStates", "as_probabilities", "check_game",
           "exploitability"]

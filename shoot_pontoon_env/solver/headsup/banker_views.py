"""Asking a given banker (rule-based or trained) heads-up: the view it decides on facing each
observation of the punter's box, and its decisions there, as the best responses and a pair's value
need them (``best_banker``, ``best_punter``).

Limits of a given banker's decisions (:func:`observation_draws`):

- A banker that draws on its own cards only (stand-on-N, the dealer rule) is asked once per hand.
  A banker of ``strategies`` that reads the table (``shoot_aware``) decides on its cards through
  their total, softness and number only (:func:`decides_on_total`), so it is asked once per (total,
  softness, number of cards, observation) and its answer reused for every hand that shares them.
  Any other banker (a trained network, which reads its cards) is asked at every hand of its cards
  (a multiset of values, in ascending order) facing each observation: asked once per total instead,
  ``zoo:shoot_banker_headsup`` was worth 0.005 per unit stake less to ``tips`` than it is.
- The banker's :class:`SeatView` (:func:`banker_view`) is filled as the engine's ``seat_view``
  fills it on a table reshuffled every deal with a new Shoot of ``initial_shoot``: ``shoe_size`` the
  whole shoe, ``shoot_capacity`` the Shoot less the unsettled Shoot bets (within ``max_shoot_bet``),
  ``balance`` :data:`~.game_punter.STARTING_CHIPS` less its post to the Shoot, ``seen_counts`` the
  cards it sees this deal (as values: a ten-value card as the Ten); a split box shows two split hands
  stuck on their two face-down cards (:func:`split_box_views`), whatever the engine shows of it
  (:class:`SplitModelBanker` plays a banker so at the engine, to measure the difference).
"""

from __future__ import annotations

import numpy as np

from ...actions import Action, ActionKind, LegalMove
from ...cards import best_total
from ...engine.table import Phase
from ...engine.view import HandView, SeatView
from ...rules import Rules
from ...players.policy import Policy
from ...players.strategies import ShootAwareBanker
from ..dealer import OWN_CARDS_BANKERS, banker_declares, own_cards_only, strategy_rule
from .game_banker import BankerSpace
from .game_punter import (
    shoot_in_play,
    BANKER_SEAT,
    PUNTER_SEAT,
    STARTING_CHIPS,
    HandKey,
    Observation,
    PunterRows,
    card_of,
    is_split_observation,
    observation_of,
    shoot_capacity,
    value_index,
)

Decisions = dict[int, np.ndarray]
"""Level -> (n_m, n_O) bool: the banker draws at that hand facing that observation."""


def split_box_views(stake: int, shoot_bet: int) -> tuple[HandView, HandView]:
    """What a banker that reads the table is shown facing a split box, whose hands the model does not
    follow (``game_punter``): the split box it meets most, two split hands at the original stake, each
    stuck on its two face-down cards, the first with the box's Shoot bet. (Shown no hands, a trained
    banker meets a view the engine never gives it, and answers unlike itself at the engine's split
    boxes far more often: docs/HISTORY.md, 0.8.0, "Trained players and the equilibrium in the table
    of pairs".)"""
    first = HandView(PUNTER_SEAT, (), 2, stake, stake, shoot_bet, 0, 0, False, True, True, False, False, 0)
    return first, first._replace(shoot_bet=0)


def banker_hand_views(observation: Observation) -> tuple[HandView, ...]:
    """The punter's hands as the banker's :class:`SeatView` shows them, from an observation (a split
    box's: :func:`split_box_views`)."""
    if is_split_observation(observation):
        _, stake, shoot_bet = observation[0]
        return split_box_views(stake, shoot_bet)
    views = []
    for key in observation:
        k = HandKey(*key)
        views.append(HandView(PUNTER_SEAT, tuple(card_of(v) for v in k.visible), k.hidden, k.stake,
                              k.original_stake, k.shoot_bet, k.buys, k.twists, k.doubled, k.from_split,
                              k.done, k.settled, k.bust, -(k.stake + k.shoot_bet) if k.settled else 0))
    return tuple(views)


def banker_view(rules: Rules, values: tuple[int, ...], observation: Observation,
                hands: tuple[HandView, ...] | None = None, shoot: int | None = None) -> SeatView:
    """The banker's view when it decides with these cards facing that observation (``hands``: its
    :func:`banker_hand_views`, where the caller has them; ``shoot``: the Shoot in play, by default a
    new one, ``game_punter.shoot_in_play``)."""
    cards = tuple(card_of(v) for v in values)
    total, soft = best_total(cards)
    legal = [LegalMove(ActionKind.STICK)]
    if rules.may_draw_on(total, soft):
        legal.append(LegalMove(ActionKind.TWIST))
    if hands is None:
        hands = banker_hand_views(observation)
    shoot = shoot_in_play(rules, shoot)
    seen = np.zeros(13, dtype=np.int64)
    for card in (*cards, *(c for h in hands for c in h.cards)):
        seen[card >> 2] += 1  # the cards the banker sees this deal (its own, the punter's face-up ones)
    return SeatView(
        seat=BANKER_SEAT, is_banker=True, banker=BANKER_SEAT, rules=rules, phase=Phase.BANKER,
        legal=tuple(legal), shoot=shoot, shoot_capacity=shoot_capacity(rules, shoot, hands), reserve=0,
        shoot_bet_point=None, current=None, hands=hands, banker_cards=cards, banker_hidden=0,
        seen_counts=seen, shoe_size=rules.shoe_size,
        balance=STARTING_CHIPS - shoot, num_players=2)


TOTAL_BANKERS = (*OWN_CARDS_BANKERS, ShootAwareBanker.banker_play)
"""Banker methods known to decide on the banker's cards through their total, softness and number."""


def decides_on_total(strategy: Policy) -> bool:
    """Whether a banker's draw depends on its own cards only through their total, softness and number
    (and on the table): known for the bankers of ``strategies``; a custom strategy declares it with a
    class attribute ``decides_on_total = True``."""
    return banker_declares(strategy, "decides_on_total", TOTAL_BANKERS)


def strategy_draws(strategy: Policy, rows: PunterRows, space: BankerSpace, seed: int = 0) -> Decisions:
    """A given banker's decisions facing each observation of ``rows`` (:func:`observation_draws`)."""
    return observation_draws(strategy, rows.rules, rows.observations, ~rows.all_settled, space, seed, rows.shoot)


def observation_draws(strategy: Policy, rules: Rules, observations: list[Observation], live: np.ndarray,
                      space: BankerSpace, seed: int = 0, shoot: int | None = None) -> Decisions:
    """A given banker's decisions at every hand it can reach facing each observation (``live``: not
    every punter hand bust). A banker that draws on its own cards only is asked once per hand;
    another is asked with the whole view, only where its own earlier choices can bring it (forward,
    level by level): once per (total, softness, number of cards, observation) where it
    :func:`decides_on_total`, else at every hand facing each observation (see the module doc). ``shoot``:
    the Shoot in play its views show (by default a new one)."""
    n_obs = len(observations)
    out: Decisions = {m: np.zeros((len(lv.values), n_obs), dtype=bool) for m, lv in space.levels.items()}
    if own_cards_only(strategy):
        rule = strategy_rule(strategy, rules)
        for m, lv in space.levels.items():
            wants = np.array([bool(c) and rule.wants_card(v) for v, c in zip(lv.values, lv.can_draw)])
            out[m] = wants[:, None] & live[None, :]
        return out
    reach = np.zeros((len(space.levels[2].values), n_obs), dtype=bool)
    reach[space.start > 0] = True
    by_total = decides_on_total(strategy)
    batched = batches(strategy)
    hands: dict[int, tuple[HandView, ...]] = {}
    rng = np.random.default_rng(seed)
    fresh = rng.bit_generator.state  # restored before each question: a new Generator of ``seed``, made faster
    for m in sorted(space.levels):
        lv = space.levels[m]
        ask = reach & lv.can_draw[:, None] & live[None, :]
        rows, cols = np.nonzero(ask)  # row-major: each (kind of hand, observation) asked at its first hand
        if by_total:
            totals = [best_total([card_of(v) for v in values]) for values in lv.values]
            kinds = {total: k for k, total in enumerate(totals)}  # one hand of each total asked for all
            kind = np.array([kinds[total] for total in totals])
        else:
            kind = np.arange(len(lv.values))
        codes, first, inverse = np.unique(kind[rows] * n_obs + cols, return_index=True, return_inverse=True)
        answers = np.zeros(len(codes), dtype=bool)
        views = []
        for k, at in enumerate(first.tolist()):
            i, o = int(rows[at]), int(cols[at])
            if o not in hands:
                hands[o] = banker_hand_views(observations[o])
            view = banker_view(rules, lv.values[i], observations[o], hands[o], shoot)
            if batched:
                views.append(view)
                continue
            rng.bit_generator.state = fresh
            action: Action = strategy.act(view, rng)
            if action.kind not in (ActionKind.STICK, ActionKind.TWIST):
                raise ValueError(f"banker strategy {strategy!r} answered {action} to a stick/twist choice")
            answers[k] = action.kind == ActionKind.TWIST
        if views:
            answers = batch_twists(strategy, views)
        out[m][rows, cols] = answers[inverse.reshape(-1)]
        if m + 1 in space.levels:
            nxt = np.zeros((len(space.levels[m + 1].values), n_obs), dtype=bool)
            for v in range(lv.child.shape[1]):
                ok = lv.child[:, v] >= 0
                np.logical_or.at(nxt, lv.child[ok, v], out[m][ok])
            reach = nxt
    return out


def batches(strategy: Policy) -> bool:
    """Whether the banker answers a batch of views at once (a deterministic network: ``act_batch``),
    and its ``act`` was not replaced on the object (a ``Progress`` counting its questions)."""
    return "act" not in vars(strategy) and strategy.act_batch([]) is not None


def batch_twists(strategy: Policy, views: list[SeatView]) -> np.ndarray:
    """Whether the banker twists at each view, its answers as one batch (``Policy.act_batch``)."""
    actions = strategy.act_batch(views)
    if actions is None or len(actions) != len(views):
        raise ValueError(f"banker strategy {strategy!r} answered no batch of {len(views)} views")
    bad = [a for a in actions if a.kind not in (ActionKind.STICK, ActionKind.TWIST)]
    if bad:
        raise ValueError(f"banker strategy {strategy!r} answered {bad[0]} to a stick/twist choice")
    return np.array([a.kind == ActionKind.TWIST for a in actions], dtype=bool)


class SplitModelBanker(Policy):
    """A banker played at an engine table as the heads-up model asks it: facing a split box it is
    asked exactly the model's question, everywhere else it plays as itself. Paired with the banker
    itself on the same shuffles, it measures what the model's one split observation changes
    (docs/HISTORY.md, 0.8.0).

    At a split box the engine's whole :class:`SeatView` is replaced by :func:`banker_view` of the
    banker's card values in ascending order (``observation_draws`` asks each hand so: a network that
    reads which card came first answers otherwise on the dealt order) facing the box's
    :func:`~.game_punter.split_observation`, whatever the engine's view holds: the banker's cards as
    those values (a ten-value card as the Ten), the punter's hands as :func:`split_box_views`,
    ``seen_counts`` as the banker's own values (the split box shows no card), ``balance`` as
    :data:`~.game_punter.STARTING_CHIPS` less the initial Shoot, ``shoot`` as ``initial_shoot``,
    ``reserve`` 0, ``shoe_size`` the whole shoe, and ``shoot_capacity`` and the legal moves as the
    model derives them from these.

    ``split_decisions`` counts the decisions it met at split boxes, ``split_decisions_differ`` those
    where the model's answer was not the banker's own answer to the engine's view (asked with the same
    random state, so the model's answer is the one played and the stream is the model's)."""

    def __init__(self, banker: Policy) -> None:
        self.banker = banker
        self.name = f"{getattr(banker, 'name', type(banker).__name__)} (split boxes as modelled)"
        self.split_decisions = 0
        self.split_decisions_differ = 0

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        if not (view.is_banker and view.phase == Phase.BANKER and any(h.from_split for h in view.hands)):
            return self.banker.act(view, rng)
        values = tuple(sorted(value_index(c) for c in view.banker_cards))
        state = rng.bit_generator.state
        own = self.banker.act(view, rng)
        rng.bit_generator.state = state
        action = self.banker.act(banker_view(view.rules, values, observation_of(view.hands)), rng)
        self.split_decisions += 1
        self.split_decisions_differ += action != own
        return action

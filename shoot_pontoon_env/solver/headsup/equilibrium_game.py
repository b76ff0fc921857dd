"""Heads-up Shoot Pontoon as arrays, for equilibrium solvers: the reduced game, both players'
information structure, and the payoff of every (punter row, banker hand) pair.

The reduced game (:func:`equilibrium_rules`): one punter and a free banker, one initial stake, no
Shoot bets, no splits; buys of every amount the rules allow, the banker's peek, the finite shoe
reshuffled every deal. Its information structure is the one the environments' flat observations
show (``seat/encoding.py``), which drops the order of a hand's cards:

- the banker sees the punter's twisted cards as a multiset (not in the order twisted), how many
  cards lie face down, the stake and buys, and whether the hand stuck, bust or made a Five Card
  Trick; its own cards as a multiset (their order and the ranks of ten-value cards change nothing);
- the punter sees its own cards as a multiset, with its stake, buys and twists: it cannot tell
  which of its cards were twisted (so the banker's view of them) once it has twisted. A punter
  information set is therefore a set of *states* (hidden cards, twisted cards); the game tree on
  states is what the best responses (``best_punter``, which also knows the split) are computed on.

Chance is left to the joint chance of a whole deal (``game_banker.JointChance``): every ordered line
of play of either player counts once, and the weights below are joint with the chance of the cards.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...actions import Action, ActionKind
from ...rules import SHOOT_BET_POINTS, Rules, get_rules
from .best_banker import banker_hand_chances, parent_hands
from ..dealer import NUM_OUTCOMES
from .game_banker import BankerSpace, JointChance, banker_space
from .game_punter import HandKey, Observation, check_rules
from .best_punter import peek_losses, start_node
from .punter_tree import PunterTree, hand_counts
from ..space import NUM_VALUES


def equilibrium_rules(rules: Rules | str = "shoot") -> Rules:
    """The reduced game solved for the equilibrium: ``rules`` with one initial stake (the base stake),
    no Shoot bets and no splits; everything else (buys of every allowed amount, the peek, the pays,
    the finite shoe) as ``rules`` have it. Named ``<name>-equilibrium``."""
    rules = get_rules(rules)
    stake = min(max(rules.base_stake, rules.min_stake), rules.max_stake)
    reduced = rules.replace(min_stake=stake, max_stake=stake, base_stake=stake, shoot_bet_points=(),
                            max_split_hands=1)
    if reduced == rules.replace(name=reduced.name):
        return rules
    return reduced.replace(name=f"{rules.name}-equilibrium")


def shoot_equilibrium_rules(rules: Rules | str = "shoot", allowance: int | None = None,
                            shoot: int | None = None) -> Rules:
    """The reduced game with Shoot bets: :func:`equilibrium_rules` with a Shoot bet offered at every
    betting point (before the deal, the second card and the fourth), each bet nothing or the
    allowance (``max_shoot_bet``; default one stake), or what the Shoot of ``shoot`` chips has left
    (default three allowances: room for a bet at every point). Named ``<name>-shoot<A>of<S>``."""
    base = equilibrium_rules(rules)
    allowance = base.min_stake if allowance is None else allowance
    shoot = 3 * allowance if shoot is None else shoot
    return base.replace(shoot_bet_points=SHOOT_BET_POINTS, max_shoot_bet=allowance, initial_shoot=shoot,
                        shoot_cap=None if base.shoot_cap is None else max(base.shoot_cap, shoot),
                        name=f"{base.name}-shoot{allowance}of{shoot}")


def reduced_game_differences(rules: Rules, shoot_bets: bool = False) -> list[str]:
    """How ``rules`` differ from a game the equilibrium solver models (empty: it models them);
    ``shoot_bets``: the game may have Shoot bets (:func:`shoot_equilibrium_rules`)."""
    problems = []
    if rules.min_stake != rules.max_stake:
        problems.append(f"min_stake={rules.min_stake}, max_stake={rules.max_stake} (the equilibrium game has "
                        "one initial stake: min_stake == max_stake)")
    if rules.base_stake != rules.min_stake:
        problems.append(f"base_stake={rules.base_stake} (the equilibrium game's unit is its one stake, "
                        f"{rules.min_stake})")
    if rules.shoot and rules.shoot_bet_points and not shoot_bets:
        problems.append(f"shoot_bet_points={rules.shoot_bet_points} (the equilibrium game has no Shoot "
                        "bets: (); shoot_equilibrium_rules gives the one that has)")
    if rules.max_split_hands != 1:
        problems.append(f"max_split_hands={rules.max_split_hands} (the equilibrium game has no splits: 1)")
    if rules.buy_after_twist:
        problems.append("buy_after_twist=True (the equilibrium game buys only before a twist)")
    try:
        check_rules(rules)
    except NotImplementedError as error:
        problems.append(str(error))
    return problems


def check_equilibrium_rules(rules: Rules, shoot_bets: bool = False) -> None:
    """ValueError naming every difference between ``rules`` and a game the solver models
    (``shoot_bets``: one with Shoot bets may be)."""
    problems = reduced_game_differences(rules, shoot_bets)
    if problems:
        raise ValueError(f"rules {rules.name!r} are not a heads-up equilibrium game "
                         f"(use equilibrium_rules(rules)): " + "; ".join(problems))


def sorted_observation(observation: Observation) -> Observation:
    """An observation of ``game_punter`` / ``best_punter`` as the flat observation shows it: each
    hand's face-up values as a multiset (ascending)."""
    if not observation or not isinstance(observation[0], tuple) or observation[0][0] in ("bust", "split"):
        return observation
    return tuple(HandKey(*h)._replace(visible=tuple(sorted(HandKey(*h).visible))) for h in observation)


class _SortedTree(PunterTree):
    """``punter_tree``'s tree of punter states with the twisted cards kept as a multiset (ascending),
    so that the banker's observation is the flat observation's."""

    def _after(self, hidden: tuple[int, ...], stake: int, buys: int, twists: tuple[int, ...], bet: int = 0
               ) -> tuple[bool, int]:
        return super()._after(hidden, stake, buys, tuple(sorted(twists)), bet)


def info_key(state: tuple) -> tuple:
    """What the punter's flat observation shows of a state (hidden counts, stake, buys, twists[,
    Shoot bet]): all its value counts, its stake, buys and number of twists (and the bet riding); a
    Shoot bet's state before the cards (:data:`BEFORE_DEAL`, :func:`first_card_key`) as it is, and
    the offer before the fourth card (``punter_tree.offer_key``) as its hand's, offered."""
    if isinstance(state[0], str):
        return state
    if state[-1] == "offer":
        return info_key(state[:-1]) + ("offer",)
    hidden, stake, buys, twists = state[:4]
    counts = hand_counts(hidden, twists)
    return (counts, stake, buys, len(twists)) + tuple(state[4:])


BEFORE_DEAL = ("before_deal",)
"""The state of the Shoot bet before the deal (the punter knows nothing yet)."""


def first_card_key(first: int, bet: int) -> tuple:
    """The state of the Shoot bet before the second card: the first card's value, the bet riding."""
    return ("before_second_card", first, bet)


def state_level(state: tuple) -> int:
    """The order in which a state's decisions come (its children's are later): the bet before the deal
    0, before the second card 1, a hand of ``n`` cards ``2n``, and its offer before the fourth card
    ``2n - 1`` (before the hand's own decision)."""
    if state == BEFORE_DEAL:
        return 0
    if state[0] == "before_second_card":
        return 1
    if state[-1] == "offer":
        return 2 * sum(state[0]) + 2 * len(state[3]) - 1
    return 2 * (sum(state[0]) + len(state[3]))


@dataclass
class HeadsUpGame:
    """The reduced game as arrays (see the module doc). ``R`` rows (finished punter hands), ``L`` of
    them live (not bust), ``n_O`` observations of live hands, banker hands by level."""

    rules: Rules
    stake: int
    space: BankerSpace
    # --- the punter
    states: list[tuple]
    """(hidden value counts, stake, buys, twisted values ascending) of every decision state."""
    state_level: np.ndarray
    """(n_s,) cards held."""
    state_info: np.ndarray
    """(n_s,) the information set of each state."""
    infos: list[tuple]
    """:func:`info_key` of each information set (or the state, with perfect recall)."""
    sa_state: np.ndarray
    """(n_sa,) the state of each (state, action)."""
    sa_ia: np.ndarray
    """(n_sa,) its (information set, action) index."""
    ia_info: np.ndarray
    """(n_ia,) the information set of each (information set, action)."""
    ia_action: list[Action]
    edge_sa: np.ndarray
    """(n_e,) the (state, action) of each edge to a successor (one per drawn value; one for a stick)."""
    edge_row: np.ndarray
    """(n_e,) bool: the successor is a row (else a state)."""
    edge_child: np.ndarray
    start_state: np.ndarray
    """Start states (two dealt cards, not a Pontoon) and their ordered deals (1 for a pair, else 2)."""
    start_orders: np.ndarray
    start_row: np.ndarray
    """Rows of a dealt Pontoon, and their ordered deals."""
    start_row_orders: np.ndarray
    # --- rows and the banker
    row_obs: np.ndarray
    """(R,) the observation of each row (live rows first, grouped by observation; bust rows -1)."""
    row_counts: np.ndarray
    """(R, 10) the value counts of each row's cards."""
    live: int
    """Rows ``0 .. live-1`` are live, sorted by observation."""
    observations: list[Observation]
    obs_seg: np.ndarray
    """(n_O + 1,) row offsets of each observation."""
    bust_value: np.ndarray
    """(R - live,) a bust row's value per ordered line (the banker does not play)."""
    matrix: dict[int, np.ndarray]
    """Level m -> (L, n_m): chance(K_r, b) * W_r[outcome(b)] for live row r and banker hand b."""
    constant: float
    """The value of the deals a banker's Pontoon settles at the peek."""

    @property
    def betting(self) -> bool:
        """Whether the game has Shoot bets (:func:`shoot_equilibrium_rules`)."""
        return bool(self.rules.shoot and self.rules.shoot_bet_points)

    @property
    def totals(self) -> tuple[int, ...] | None:
        """What ``best_punter.punter_response`` takes for the game's bets: () (nothing or all the
        room at each point) with Shoot bets, None without."""
        return () if self.betting else None

    @property
    def sizes(self) -> dict[str, int]:
        """The counts of the game's parts (states, information sets, rows, observations, banker hands)."""
        return {"states": len(self.states), "information_sets": len(self.infos), "rows": len(self.row_obs),
                "live_rows": self.live, "observations": len(self.observations),
                "banker_hands": self.space.size}


def build_game(rules: Rules, perfect_recall: bool = False) -> HeadsUpGame:
    """The arrays of the reduced game ``rules`` (:func:`check_equilibrium_rules`). ``perfect_recall``:
    the punter's information set is its state (it knows which cards it twisted), as in the best
    response; by default it is what the flat observation shows (:func:`info_key`)."""
    betting = bool(rules.shoot and rules.shoot_bet_points)
    check_equilibrium_rules(rules, shoot_bets=betting)
    stake = rules.min_stake
    tree = _SortedTree(rules, stake, () if betting else None)
    space = banker_space(rules)
    joint = JointChance.of(rules)
    peek = peek_losses(rules, tree, space, joint)
    if betting:
        starts = _betting_starts(tree, peek)
        peek_value = 0.0
    else:
        pairs = [(a, b) for a in range(NUM_VALUES) for b in range(a, NUM_VALUES)]
        starts = [(1.0 if a == b else 2.0, start_node(tree, a, b, 0)) for a, b in pairs]
        peek_value = float(sum((1.0 if a == b else 2.0) * peek[a, b, 0] for a, b in pairs))
    states = list(tree.order)
    state_id = {s: i for i, s in enumerate(states)}
    # rows: live first, grouped by observation
    keys = sorted(tree.rows, key=tree.rows.get)
    obs_list = sorted(tree.obs, key=tree.obs.get)
    is_bust = np.array([obs_list[o][0][0] in ("bust", "peek") for o, _ in keys])
    """Rows the banker does not play: bust hands, and the peek's (a banker's Pontoon, with bets)."""
    live_ids = sorted({o for (o, _), b in zip(keys, is_bust) if not b}, key=lambda o: obs_list[o])
    live_obs = [obs_list[o] for o in live_ids]
    obs_new = {o: i for i, o in enumerate(live_ids)}
    order = sorted(range(len(keys)), key=lambda r: (is_bust[r], obs_new.get(keys[r][0], -1), r))
    new_row = np.empty(len(keys), dtype=np.int64)
    new_row[order] = np.arange(len(keys))
    counts = np.array([keys[r][1] for r in order], dtype=np.int64).reshape(len(keys), NUM_VALUES)
    payoff = np.array([tree.row_payoff[r] for r in order]).reshape(len(keys), NUM_OUTCOMES)
    live = int((~is_bust).sum())
    row_obs = np.array([obs_new.get(keys[r][0], -1) for r in order], dtype=np.int64)
    obs_seg = np.searchsorted(row_obs[:live], np.arange(len(live_obs) + 1))
    # information sets and the (state, action) structure
    info_of = [s if perfect_recall else info_key(s) for s in states]
    info_id: dict[tuple, int] = {}
    for k in info_of:
        info_id.setdefault(k, len(info_id))
    state_info = np.array([info_id[k] for k in info_of], dtype=np.int64)
    ia_index: dict[tuple[int, int], int] = {}
    ia_info, ia_action = [], []
    sa_state, sa_ia, edge_sa, edge_row, edge_child = [], [], [], [], []
    for s, key in enumerate(states):
        info = int(state_info[s])
        for j, (action, children) in enumerate(zip(tree.moves[key], tree.nodes[key])):
            ia = ia_index.get((info, j))
            if ia is None:
                ia = ia_index[(info, j)] = len(ia_info)
                ia_info.append(info)
                ia_action.append(action)
            elif ia_action[ia] != action:
                raise AssertionError(f"information set {info_of[s]}: states with different actions")
            sa = len(sa_state)
            sa_state.append(s)
            sa_ia.append(ia)
            for is_row, child in children:
                edge_sa.append(sa)
                edge_row.append(is_row)
                edge_child.append(int(new_row[child]) if is_row else state_id[tree.order[child]])
    levels = np.array([state_level(s) for s in states], dtype=np.int64)
    start_state = np.array([state_id[tree.order[i]] for o, (r, i) in starts if not r], dtype=np.int64)
    start_orders = np.array([o for o, (r, i) in starts if not r])
    start_row = np.array([int(new_row[i]) for o, (r, i) in starts if r], dtype=np.int64)
    start_row_orders = np.array([o for o, (r, i) in starts if r])
    matrix = _payoff_matrix(counts[:live], payoff[:live], space, joint)
    bust_chance = joint.chance(counts[live:], space.levels[2].counts)
    peeked = np.array([obs_list[keys[r][0]][0][0] == "peek" for r in order[live:]], dtype=bool)
    bust_value = np.where(peeked, payoff[live:, 0], (space.start @ bust_chance) * payoff[live:, 0])
    return HeadsUpGame(
        rules=rules, stake=stake, space=space, states=states, state_level=levels, state_info=state_info,
        infos=list(info_id), sa_state=np.array(sa_state, dtype=np.int64),
        sa_ia=np.array(sa_ia, dtype=np.int64),
        ia_info=np.array(ia_info, dtype=np.int64), ia_action=ia_action,
        edge_sa=np.array(edge_sa, dtype=np.int64), edge_row=np.array(edge_row, dtype=bool),
        edge_child=np.array(edge_child, dtype=np.int64), start_state=start_state, start_orders=start_orders,
        start_row=start_row, start_row_orders=start_row_orders, row_obs=row_obs, row_counts=counts, live=live,
        observations=live_obs, obs_seg=obs_seg, bust_value=bust_value, matrix=matrix, constant=peek_value)


def _betting_starts(tree: PunterTree, peek: np.ndarray) -> list[tuple[float, tuple[bool, int]]]:
    """The game's root with Shoot bets: the bet before the deal (where the rules have it), then on each
    first card the bet before the second card (each a state, its actions the amounts of
    ``PunterTree.raises``), then each start with the bet riding, beside its loss to a banker's
    Pontoon at the peek (a row the banker does not play, its value joint with its chance)."""
    rules, stake = tree.rules, tree.stake
    points = rules.shoot_bet_points

    def peek_row(a: int, b: int, bet: int) -> list[tuple[bool, int]]:
        if not rules.banker_peek:
            return []
        hidden = tuple((v == a) + (v == b) for v in range(NUM_VALUES))
        value = peek[a, b, 0] + peek[a, b, 1] * bet / stake
        return [tree.row((("peek", bet),), hidden, np.full(NUM_OUTCOMES, value))]

    def first_card(a: int, bet: int) -> tuple[bool, int]:
        amounts = tree.raises(bet) if "before_second_card" in points else [0]
        actions = [[child for b in range(NUM_VALUES)
                    for child in [start_node(tree, a, b, bet + x), *peek_row(a, b, bet + x)]] for x in amounts]
        return tree.node(first_card_key(a, bet), actions, [Action(ActionKind.SHOOT_BET, x) for x in amounts])

    if "before_deal" not in points:
        return [(1.0, first_card(a, 0)) for a in range(NUM_VALUES)]
    amounts = tree.raises(0)
    actions = [[first_card(a, x) for a in range(NUM_VALUES)] for x in amounts]
    return [(1.0, tree.node(BEFORE_DEAL, actions, [Action(ActionKind.SHOOT_BET, x) for x in amounts]))]


def _payoff_matrix(counts: np.ndarray, payoff: np.ndarray, space: BankerSpace, joint: JointChance
                   ) -> dict[int, np.ndarray]:
    """chance(K_r, b) * W_r[outcome(b)] per level (the chances of ``best_banker.banker_hand_chances``)."""
    return {m: np.ascontiguousarray((chance * payoff[:, space.levels[m].outcome].T).T)
            for m, chance in banker_hand_chances(counts, space, joint, parent_hands(space))}


__all__ = ["BEFORE_DEAL", "HeadsUpGame", "build_game", "check_equilibrium_rules", "equilibrium_rules",
           "first_card_key", "info_key", "reduced_game_differences", "shoot_equilibrium_rules", "sorted_observation",
           "state_level"]

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

from ...actions import Action
from ...rules import Rules, get_rules
from .best_banker import banker_hand_chances, parent_hands
from ..dealer import NUM_OUTCOMES, PONTOON
from .game_banker import BankerSpace, JointChance, banker_space
from .game_punter import HandKey, Observation, check_rules
from ..payoff import payoff_matrices, punter_class
from .punter_tree import PunterTree, counts_total, hand_counts
from ..space import ACE, NUM_VALUES, TEN


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


def reduced_game_differences(rules: Rules) -> list[str]:
    """How ``rules`` differ from a game the equilibrium solver models (empty: it models them)."""
    problems = []
    if rules.min_stake != rules.max_stake:
        problems.append(f"min_stake={rules.min_stake}, max_stake={rules.max_stake} (the equilibrium game has "
                        "one initial stake: min_stake == max_stake)")
    if rules.base_stake != rules.min_stake:
        problems.append(f"base_stake={rules.base_stake} (the equilibrium game's unit is its one stake, "
                        f"{rules.min_stake})")
    if rules.shoot and rules.shoot_bet_points:
        problems.append(f"shoot_bet_points={rules.shoot_bet_points} (the equilibrium game has no Shoot "
                        "bets: ())")
    if rules.max_split_hands != 1:
        problems.append(f"max_split_hands={rules.max_split_hands} (the equilibrium game has no splits: 1)")
    if rules.buy_after_twist:
        problems.append("buy_after_twist=True (the equilibrium game buys only before a twist)")
    try:
        check_rules(rules)
    except NotImplementedError as error:
        problems.append(str(error))
    return problems


def check_equilibrium_rules(rules: Rules) -> None:
    """ValueError naming every difference between ``rules`` and a game the solver models."""
    problems = reduced_game_differences(rules)
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
    """What the punter's flat observation shows of a state (hidden counts, stake, buys, twists):
    all its value counts, its stake, buys and number of twists."""
    hidden, stake, buys, twists = state
    counts = hand_counts(hidden, twists)
    return counts, stake, buys, len(twists)


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
    def sizes(self) -> dict[str, int]:
        """The counts of the game's parts (states, information sets, rows, observations, banker hands)."""
        return {"states": len(self.states), "information_sets": len(self.infos), "rows": len(self.row_obs),
                "live_rows": self.live, "observations": len(self.observations),
                "banker_hands": self.space.size}


def build_game(rules: Rules, perfect_recall: bool = False) -> HeadsUpGame:
    """The arrays of the reduced game ``rules`` (:func:`check_equilibrium_rules`). ``perfect_recall``:
    the punter's information set is its state (it knows which cards it twisted), as in the best
    response; by default it is what the flat observation shows (:func:`info_key`)."""
    check_equilibrium_rules(rules)
    stake = rules.min_stake
    tree = _SortedTree(rules, stake)
    starts: list[tuple[float, tuple[bool, int]]] = []
    peek_value = 0.0
    space = banker_space(rules)
    joint = JointChance.of(rules)
    g, _ = payoff_matrices(rules, False)
    for a in range(NUM_VALUES):
        for b in range(a, NUM_VALUES):
            hidden = tuple((v == a) + (v == b) for v in range(NUM_VALUES))
            orders = 1.0 if a == b else 2.0
            pontoon = {a, b} == {ACE, TEN}
            if pontoon:
                key = (HandKey(tuple(sorted((a, b))), hidden=0, stake=stake, original_stake=stake),)
                starts.append((orders, tree.row(key, hidden, g[punter_class(21, 2, True)])))
            else:
                starts.append((orders, tree.build(hidden, stake, 0, ())))
            if rules.banker_peek:
                cls = punter_class(21 if pontoon else counts_total(hidden)[0], 2, pontoon)
                chance = joint.chance(np.array([hidden]), space.pontoon_start[None, :])[0, 0]
                peek_value += orders * space.pontoon_orders * chance * g[cls, PONTOON]
    states = list(tree.order)
    state_id = {s: i for i, s in enumerate(states)}
    # rows: live first, grouped by observation
    keys = sorted(tree.rows, key=tree.rows.get)
    obs_list = sorted(tree.obs, key=tree.obs.get)
    is_bust = np.array([obs_list[o][0][0] == "bust" for o, _ in keys])
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
    state_level = np.array([sum(info_key(s)[0]) for s in states], dtype=np.int64)
    start_state = np.array([state_id[tree.order[i]] for o, (r, i) in starts if not r], dtype=np.int64)
    start_orders = np.array([o for o, (r, i) in starts if not r])
    start_row = np.array([int(new_row[i]) for o, (r, i) in starts if r], dtype=np.int64)
    start_row_orders = np.array([o for o, (r, i) in starts if r])
    matrix = _payoff_matrix(counts[:live], payoff[:live], space, joint)
    bust_chance = joint.chance(counts[live:], space.levels[2].counts)
    bust_value = (space.start @ bust_chance) * payoff[live:, 0]
    return HeadsUpGame(
        rules=rules, stake=stake, space=space, states=states, state_level=state_level, state_info=state_info,
        infos=list(info_id), sa_state=np.array(sa_state, dtype=np.int64),
        sa_ia=np.array(sa_ia, dtype=np.int64),
        ia_info=np.array(ia_info, dtype=np.int64), ia_action=ia_action,
        edge_sa=np.array(edge_sa, dtype=np.int64), edge_row=np.array(edge_row, dtype=bool),
        edge_child=np.array(edge_child, dtype=np.int64), start_state=start_state, start_orders=start_orders,
        start_row=start_row, start_row_orders=start_row_orders, row_obs=row_obs, live=live,
        observations=live_obs, obs_seg=obs_seg, bust_value=bust_value, matrix=matrix, constant=peek_value)


def _payoff_matrix(counts: np.ndarray, payoff: np.ndarray, space: BankerSpace, joint: JointChance
                   ) -> dict[int, np.ndarray]:
    """chance(K_r, b) * W_r[outcome(b)] per level (the chances of ``best_banker.banker_hand_chances``)."""
    return {m: np.ascontiguousarray((chance * payoff[:, space.levels[m].outcome].T).T)
            for m, chance in banker_hand_chances(counts, space, joint, parent_hands(space))}


__all__ = ["HeadsUpGame", "build_game", "check_equilibrium_rules", "equilibrium_rules", "info_key",
           "reduced_game_differences", "sorted_observation"]

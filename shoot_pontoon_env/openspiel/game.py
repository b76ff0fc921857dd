"""Shoot Pontoon as an OpenSpiel python game, ``python_shoot_pontoon``: the Table engine's rules, its cards
dealt by chance nodes with the shoe's exact probabilities.

A state keeps the Table at its last resting point (a player's decision, or the episode's end). A move
is played on a copy of it (``Table.apply``, then the fixed seats' players and the next deals, up to the
next player's decision); where that wants a card chance has not chosen, the state becomes a chance
node over the stock's cards (``chance.ChanceShoe``) and the move is replayed with the chosen cards
once each is known. So every rule is the Table's own code, and the chance of a card is what is left
of the packs since the last shuffle.

What a player observes is its seat's :class:`SeatView` and nothing else: the observation string is the
view written out (the seat's cards in dealing order, the face-up cards of the others, the chips in
sight), the observation tensor is the environments' flat encoding of it (``seat.encoding``: what
``ShootPontoonAECEnv`` observes for that seat), and the information state string is the seat's
perfect recall: its view and action at each of its decisions and its view at the end of each deal,
then its view now. The information state tensor is the observation tensor (the flat encoding drops
the order of a hand's cards, so the tensor is of imperfect recall).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pyspiel

from ..actions import Action
from ..cards import CARDS_PER_DECK, FIVE_CARDS, card_code, value_of
from ..engine.table import Phase, Table
from ..engine.view import SeatView, seat_view
from ..rules import MAX_DRAWS, Rules
from .chance import ChanceShoe, NeedCard, NoRandomness
from .params import DEFAULTS, GameSettings, game_settings

GAME_NAME = "python_shoot_pontoon"
HAND_DECISIONS = 4 + MAX_DRAWS
"""The most decisions one punter hand asks for: a Shoot bet before its fourth card, its draws, a stick,
a split and Double Stakes (a bound, not a count of one line of play)."""


def game_type(zero_sum: bool) -> pyspiel.GameType:
    """The game's type: zero-sum when every seat is a player's, general-sum with fixed seats."""
    utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
    return pyspiel.GameType(
        short_name=GAME_NAME, long_name="Shoot Pontoon (shoot-pontoon-env)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL, chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION, utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL, max_num_players=10, min_num_players=2,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True, parameter_specification=DEFAULTS)


def length_bound(rules: Rules, seats: int, deals: int) -> int:
    """A bound on an episode's moves, decisions and cards dealt together (OpenSpiel's max_game_length)."""
    boxes = (seats - 1) * rules.max_boxes
    hands = boxes * rules.max_split_hands
    decisions = (seats - 1) + boxes * (1 + len(rules.shoot_bet_points)) + hands * HAND_DECISIONS
    cards = hands * FIVE_CARDS + rules.banker_card_limit
    return deals * (decisions + rules.banker_card_limit + 1 + cards)


def utility_bound(rules: Rules, seats: int, deals: int) -> float:
    """A bound on any seat's net chips over an episode, in base stakes (not tight): every hand at the
    largest stake it can reach paid at the largest multiple, and Shoot bets against a Shoot that at most
    doubles each deal."""
    stake = rules.max_stake * (rules.max_stake_multiple or 1 + rules.buy_max_multiple * MAX_DRAWS)
    stake *= 2 if rules.double_stakes else 1
    pays = max(rules.win_pays, rules.twenty_one_pays, rules.pontoon_pays, rules.five_card_trick_pays,
               rules.special_pontoon_pays, rules.banker_pontoon_multiple, 2)
    hands = (seats - 1) * rules.max_boxes * rules.max_split_hands
    shoot, total = rules.initial_shoot + rules.bank_sale_price, 0
    for _ in range(deals):
        total += hands * stake * (pays + 1) + 2 * shoot + rules.progressive_shoot_chips * hands
        shoot = 2 * shoot + rules.progressive_shoot_chips * hands + rules.initial_shoot
    return float(total) / rules.base_stake


def view_string(view: SeatView) -> str:
    """A seat's view written out: what it may see, and nothing else."""
    role = "banker" if view.is_banker else "punter"
    parts = [f"seat {view.seat} ({role}; banker {view.banker})", f"phase {view.phase.name.lower()}",
             f"shoot {view.shoot} (open {view.shoot_capacity}, reserve {view.reserve})",
             f"balance {view.balance}"]
    if view.shoot_bet_point:
        parts.append(f"betting point {view.shoot_bet_point}")
    for index, hand in enumerate(view.hands):
        marks = "".join(flag for flag, on in (("*", index == view.current), ("D", hand.doubled), ("S", hand.from_split),
                                               ("d", hand.done), ("x", hand.settled), ("b", hand.bust)) if on)
        cards = " ".join(card_code(c) for c in hand.cards) + " ??" * hand.hidden_cards
        parts.append(f"hand {index} seat {hand.seat}{marks}: [{cards.strip()}] stake {hand.stake}/"
                     f"{hand.original_stake} shoot bet {hand.shoot_bet} buys {hand.buys} twists {hand.twists}"
                     + (f" result {hand.result}" if hand.settled else ""))
    banker = " ".join(card_code(c) for c in view.banker_cards) + " ??" * view.banker_hidden
    parts.append(f"banker [{banker.strip()}]")
    parts.append("seen " + ",".join(str(int(n)) for n in view.seen_counts) + f" of {view.shoe_size}")
    return "; ".join(parts)


TABLE_ATTRIBUTES = frozenset({
    "rules", "num_players", "rng", "shoe", "balances", "starting_chips", "shoot", "reserve", "banker", "deal_number",
    "turnovers", "hands", "banker_cards", "banker_face_up", "banker_revealed", "banker_forfeited",
    "seen_before_deal", "events", "stage", "cursor", "box", "_deal_start_chips", "_stacked", "_legal"})
"""Every attribute of a :class:`Table`, each copied by :func:`copy_table` (a test holds the two equal)."""


def copy_table(table: Table) -> Table:
    """A copy of ``table`` sharing only what never changes (its rules, the events and starting chips,
    which are tuples): what ``copy.deepcopy`` gives, many times faster (a move copies the table
    once per card chance deals it)."""
    new = copy.copy(table)
    new.balances = list(table.balances)
    new.hands = [copy.copy(h) for h in table.hands]
    for hand in new.hands:
        hand.cards, hand.face_up = list(hand.cards), list(hand.face_up)
    new.banker_cards, new.banker_face_up = list(table.banker_cards), list(table.banker_face_up)
    new.seen_before_deal = table.seen_before_deal.copy()
    new.events = list(table.events)
    if table._deal_start_chips is not None:
        balances, shoot, reserve = table._deal_start_chips
        new._deal_start_chips = (list(balances), shoot, reserve)
    shoe = new.shoe = copy.copy(table.shoe)
    shoe.order, shoe.counts, shoe.supplied = shoe.order.copy(), shoe.counts.copy(), list(shoe.supplied)
    return new


class RestingTable:
    """The state's Table, copied by :func:`copy_table` when OpenSpiel clones the state."""

    __slots__ = ("table",)

    def __init__(self, table: Table) -> None:
        self.table = table

    def __deepcopy__(self, memo: dict) -> RestingTable:
        return RestingTable(copy_table(self.table))


class ShootPontoonGame(pyspiel.Game):
    """``python_shoot_pontoon``: a whole table, seats 0..players-1 OpenSpiel's players (parameters:
    ``params.DEFAULTS``). Actions are the whole table's action indices (``multiagent.seat_action_table``:
    the punter's table of ``ShootPontoon-v0`` then keep and sell the bank); chance outcomes are cards,
    0..51 (``cards.py``: rank * 4 + suit), or with ``chance="values"`` the stand-in card of each value.
    Returns are each player's net chips over the episode in base stakes (its balance, stakes on the
    table and, while it banks, the Shoot and the reserve)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.settings: GameSettings = game_settings(given)
        settings, rules = self.settings, self.settings.rules
        bound = utility_bound(rules, settings.seats, settings.deals)
        zero_sum = settings.players == settings.seats
        info = pyspiel.GameInfo(
            num_distinct_actions=len(settings.table.config.action_table), max_chance_outcomes=CARDS_PER_DECK,
            num_players=settings.players, min_utility=-bound, max_utility=bound,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=length_bound(rules, settings.seats, settings.deals))
        super().__init__(game_type(zero_sum), info, {**DEFAULTS, **given})

    def new_initial_state(self) -> ShootPontoonState:
        return ShootPontoonState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ShootPontoonObserver:
        if params:
            raise ValueError(f"observer parameters {params!r}: this game's observer takes none")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ShootPontoonObserver(self.settings, perfect_recall)


class ShootPontoonState(pyspiel.State):
    """One episode's state: the Table at rest, the move being played and the cards chance has chosen
    for it so far."""

    def __init__(self, game: ShootPontoonGame) -> None:
        super().__init__(game)
        self.settings = game.settings
        self._resting = RestingTable(self._first_table())
        self._deals = 1
        self._move: Action | None = None
        self._cards: list[int] = []
        self._stock: np.ndarray | None = None
        """At a chance node, the copies of each card left in the stock; None elsewhere."""
        self._recall: list[list[str]] = [[] for _ in range(self.settings.players)]
        self._play()

    # ------------------------------------------------------------------ the table
    @property
    def table(self) -> Table:
        """The Table at the last resting point (before the move a chance node deals for)."""
        return self._resting.table

    def _first_table(self) -> Table:
        config = self.settings.table.config
        table = Table(config.rules, config.num_players, starting_chips=config.starting_chips,
                      banker=self.settings.table.first_banker)
        table.shoe = ChanceShoe(config.rules.num_decks, config.rules.pack_cards, self.settings.by_value)
        table.rng = None  # a chance shoe draws no random numbers; nothing else does
        table.start_deal()
        return table

    def _play(self) -> None:
        """Play the move under way (or the first deal's opening) from the last resting point with the
        cards chosen so far: to the next player's decision, or to a chance node where a card is wanted."""
        table = copy_table(self.table)
        table.shoe.supply(self._cards)
        ended: list[tuple[int, str]] = []
        try:
            if self._move is not None:
                table.apply(self._move)
            deals = self._play_on(table, self._deals, ended)
        except NeedCard as need:
            self._stock = need.counts
            return
        if table.shoe.unused:
            raise RuntimeError(f"{table.shoe.unused} card(s) chosen by chance were not dealt")
        self._resting, self._deals, self._move, self._cards, self._stock = RestingTable(table), deals, None, [], None
        for player, text in ended:
            self._recall[player].append(text)

    def _play_on(self, table: Table, deals: int, ended: list[tuple[int, str]]) -> int:
        """The fixed seats and the next deals, up to a player's decision or the last deal's end."""
        players, config = self.settings.players, self.settings.table.config
        while True:
            if table.phase == Phase.DEAL_OVER:
                ended += [(p, "end of deal: " + view_string(seat_view(table, p))) for p in range(players)]
                if deals >= config.deals_per_episode:
                    return deals
                table.start_deal()
                deals += 1
                continue
            seat = table.to_act
            if seat < players:
                return deals
            table.apply(config.players[seat].act(seat_view(table, seat), NoRandomness(seat, self.settings.fixed)))

    # ------------------------------------------------------------------ OpenSpiel's API
    def current_player(self) -> int:
        if self._stock is not None:
            return pyspiel.PlayerId.CHANCE
        seat = self.table.to_act
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def is_terminal(self) -> bool:
        return self._stock is None and self.table.to_act is None

    def _legal_actions(self, player: int) -> list[int]:
        view = seat_view(self.table, player)
        return np.flatnonzero(self.settings.table.config.action_table.mask(view)).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        stock = self._stock
        total = float(stock.sum())
        return [(int(card), float(stock[card]) / total) for card in np.flatnonzero(stock)]

    def _apply_action(self, action: int) -> None:
        if self._stock is not None:
            if not 0 <= action < CARDS_PER_DECK or self._stock[action] <= 0:
                raise ValueError(f"card {action!r} is not in the stock: expected one of "
                                 f"{np.flatnonzero(self._stock).tolist()}")
            self._cards.append(int(action))
        else:
            player = self.current_player()
            if player < 0:
                raise ValueError("the episode is over: no move can be played")
            view = seat_view(self.table, player)
            table = self.settings.table.config.action_table
            if not 0 <= action < len(table) or not table.mask(view)[action]:
                raise ValueError(f"action {action!r} is not legal for player {player} now: expected one of "
                                 f"{self._legal_actions(player)}")
            self._recall[player].append(f"{view_string(view)} -> {table.labels[action]}")
            self._move = table.to_action(int(action), view)
            self._cards = []
        self._play()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal value {value_of(action)}" if self.settings.by_value else f"deal {card_code(action)}"
        return self.settings.table.config.action_table.labels[action]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.settings.players
        config = self.settings.table.config
        unit = config.rules.base_stake
        return [(self.table.wealth(p) - config.starting_chips) / unit for p in range(self.settings.players)]

    def recall(self, player: int) -> list[str]:
        """``player``'s perfect recall: its view and action at each decision, its view at each deal's end."""
        return list(self._recall[player])

    def deals_left(self) -> float:
        """The episode's deals still to start, as the environments' observations show it."""
        deals = self.settings.deals
        return (deals - self._deals) / deals

    def __str__(self) -> str:
        table = self.table
        hands = " | ".join(f"seat {h.seat}: " + " ".join(card_code(c) for c in h.cards) for h in table.hands)
        chance = f"; chance deals ({len(self._cards)} chosen)" if self._stock is not None else ""
        return (f"deal {table.deal_number}, banker seat {table.banker}, shoot {table.shoot}; {hands}; banker: "
                + " ".join(card_code(c) for c in table.banker_cards)
                + f"; balances {table.balances}{chance}")


class ShootPontoonObserver:
    """OpenSpiel's observer: the observation (``perfect_recall=False``) or the information state of a player,
    as a string (:func:`view_string`; the information state with the player's recall before it) and as a
    tensor (the environments' flat encoding of the player's :class:`SeatView`)."""

    def __init__(self, settings: GameSettings, perfect_recall: bool) -> None:
        self.encoder = settings.table.config.encoder
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ShootPontoonState, player: int) -> None:
        self.tensor[:] = self.encoder.encode(seat_view(state.table, player), state.deals_left())

    def string_from(self, state: ShootPontoonState, player: int) -> str:
        now = view_string(seat_view(state.table, player)) + f"; deals left {state.deals_left():g}"
        if not self.perfect_recall:
            return now
        return "\n".join(state.recall(player) + ["now: " + now])

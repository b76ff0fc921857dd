"""The table engine: a session of Pontoon deals as an explicit state machine.

One method says what is legal (:meth:`Table.legal_moves`), one applies an action
(:meth:`Table.apply`). Everything automatic between two decisions (dealing, the peek, busts,
the dealer's fixed drawing, settlement, bank turnover) happens inside ``apply``. The engine knows
nothing of Gymnasium. Randomness: only the shoe's shuffles, with the Generator given at
construction. The whole state is plain Python and NumPy data, so ``copy.deepcopy`` and ``pickle``
work at any point.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

import numpy as np

from ..actions import Action, ActionKind, IllegalActionError, LegalMove, is_int, is_legal
from ..cards import FIVE_CARDS, HandClass, HandRank, best_total, is_pontoon_pair, parse_cards
from ..rules import Rules, get_rules
from ..shoe import Shoe, ShoeExhaustedError
from .events import RESERVE_ACCOUNT, SHOOT_ACCOUNT, TABLE_ACCOUNT, Event, EventKind
from .hand import Hand
from .settlement import Outcome, banker_rank, bust, hand_rank, net, showdown

MIN_PLAYERS = 2
MAX_PLAYERS = 10
_new_event = tuple.__new__
"""Event(...) from its fields in order, without the keyword handling of a named tuple's __new__."""


def buy_range(rules: Rules, cards: int, buys: int, twists: int, original_stake: int, stake: int) -> tuple[int, int]:
    """The chips a buy may add to a hand of ``cards`` cards, ``buys`` buys and ``twists`` twists now,
    or an empty range (low > high). The solver's models of a box call it too."""
    if not rules.buys_allowed or cards >= FIVE_CARDS:
        return 1, 0
    if rules.max_buys is not None and buys >= rules.max_buys:
        return 1, 0
    if twists and not rules.buy_after_twist:
        return 1, 0
    low = rules.buy_min_multiple * original_stake
    high = rules.buy_max_multiple * original_stake
    if rules.max_stake_multiple is not None:
        high = min(high, rules.max_stake_multiple * original_stake - stake)
    return low, high


class Stage(IntEnum):
    """The state of a deal: its fixed order of stages. A stage waits for decisions or passes
    automatically; the table comes to rest only at the first kind (``PHASE_OF_STAGE``)."""

    STAKES = 0
    BET_BEFORE_DEAL = 1
    FIRST_CARDS = 2
    BET_BEFORE_SECOND = 3
    SECOND_CARDS = 4
    PEEK = 5
    PLAY = 6
    BANKER = 7
    SETTLE = 8
    BANK = 9
    OVER = 10


class Phase(IntEnum):
    """What the pending decision is, read off the stage (``Table.phase``): the seats, the legal moves and
    the observation see this much, not the stage, which also tells the two Shoot betting points apart."""

    STAKES = 0  # punters stake their boxes
    SHOOT_BETS = 1  # a Shoot betting point before the deal or before the second card
    PLAY = 2  # punter hands in turn (with the before-fourth-card Shoot bet)
    BANKER = 3  # the banker draws freely
    BANK_DECISION = 4  # between deals: the banker keeps or sells the bank
    DEAL_OVER = 5  # start the next deal with start_deal()


PHASE_OF_STAGE: dict[Stage, Phase] = {
    Stage.STAKES: Phase.STAKES, Stage.BET_BEFORE_DEAL: Phase.SHOOT_BETS, Stage.BET_BEFORE_SECOND: Phase.SHOOT_BETS,
    Stage.PLAY: Phase.PLAY, Stage.BANKER: Phase.BANKER, Stage.BANK: Phase.BANK_DECISION, Stage.OVER: Phase.DEAL_OVER,
}
"""The phase of each stage the table rests at (the others pass automatically: the deal's rounds, the peek,
the settlement). One state, the stage; the phase is derived from it, never stored."""


class Table:
    """A Pontoon table of ``num_players`` seats (2..10) numbered clockwise; one is the banker.

    Args:
        rules: a :class:`Rules` or a preset name (``"shoot"``, ``"casino"``, ``"playtech"``).
        num_players: seats at the table, the banker included.
        rng: the only source of randomness (shuffles). Defaults to ``np.random.default_rng()``.
        starting_chips: each seat's chips at the start, an int or one int per seat. Balances may
            go below zero (play on credit); stakes are limited by the rules, not by balances.
        banker: the first banker's seat.
        shuffle_key: shuffle by this key (an int in [0, 2**62)) as the batched engine does, instead of
            by ``rng`` (``shoe.py``): the same key deals the same cards on either engine.
    """

    @staticmethod
    def check_size(rules: Rules, num_players: object) -> int:
        """``num_players`` as an int, where a :class:`Table` of ``rules`` can seat them: 2..10 seats whose
        boxes of up to five cards, with the banker's hand, the shoe can always deal. A ``ValueError``
        otherwise, the one ``Table(rules, num_players)`` raises (the envs and the command line check a
        table's size with it, without building one)."""
        if not is_int(num_players) or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise ValueError(f"num_players = {num_players!r}: expected an int in {MIN_PLAYERS}..{MAX_PLAYERS}")
        num_players = int(num_players)
        boxes = (num_players - 1) * rules.max_boxes
        if FIVE_CARDS * boxes + rules.banker_card_limit > rules.shoe_size:
            raise ValueError(
                f"num_players = {num_players}: {boxes} boxes of up to five cards and the banker's "
                f"{rules.banker_card_limit} need more than the {rules.num_decks}-deck shoe holds "
                f"({rules.shoe_size} cards of the {rules.pack} pack); "
                "use fewer players or boxes, more decks, or a larger pack"
            )
        return num_players

    def __init__(
        self,
        rules: Rules | str,
        num_players: int,
        *,
        rng: np.random.Generator | None = None,
        starting_chips: int | Sequence[int] = 1000,
        banker: int = 0,
        shuffle_key: int | None = None,
    ) -> None:
        self.rules = get_rules(rules)
        num_players = Table.check_size(self.rules, num_players)
        if not is_int(banker) or not 0 <= banker < num_players:
            raise ValueError(f"banker = {banker!r}: expected a seat in 0..{num_players - 1}")
        banker = int(banker)
        chips = [starting_chips] * num_players if is_int(starting_chips) else (
            list(starting_chips) if isinstance(starting_chips, Sequence) else [])
        if len(chips) != num_players or not all(is_int(c) for c in chips):
            raise ValueError(f"starting_chips = {starting_chips!r}: expected an int or {num_players} ints")
        chips = [int(c) for c in chips]
        self.num_players = num_players
        self.rng = rng if rng is not None else np.random.default_rng()
        self.shoe = Shoe(self.rules.num_decks, shuffle_key, self.rules.pack_cards)
        self.balances: list[int] = list(chips)
        self.starting_chips: tuple[int, ...] = tuple(chips)
        self.shoot = 0
        self.reserve = 0
        self.banker = banker
        self.deal_number = 0
        self.turnovers = 0
        self.hands: list[Hand] = []
        self.banker_cards: list[int] = []
        self.banker_face_up: list[bool] = []
        self.banker_revealed = False
        self.banker_forfeited = False
        self.seen_before_deal = np.zeros(13, dtype=np.int64)
        """Ranks dealt since the last shuffle in earlier deals (all were shown by the deal's end)."""
        self.events: list[Event] = []
        self.stage = Stage.OVER
        self.cursor = 0  # index into the current stage's queue (punter order or hands)
        self.box = 0  # STAKES: which box of the punter at the cursor
        self._deal_start_chips: tuple[list[int], int, int] | None = None
        self._stacked = False
        self._legal: tuple[LegalMove, ...] | None = None
        """legal_moves() of the current state: cleared by every method that changes the state."""
        if self.rules.shoot:
            self._post_shoot(self.banker)

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_legal"] = None  # a cache: not part of the table's state
        return state

    # ------------------------------------------------------------------ views
    @property
    def punter_order(self) -> list[int]:
        """Punter seats in playing order: from the banker's left, clockwise."""
        return [(self.banker + i) % self.num_players for i in range(1, self.num_players)]

    @property
    def total_chips(self) -> int:
        """Every chip at the table: balances, Shoot, reserve and stakes lying on the table."""
        on_table = sum(h.stake + h.shoot_bet for h in self.hands if not h.settled)
        return sum(self.balances) + self.shoot + self.reserve + on_table

    @property
    def outstanding_shoot_bets(self) -> int:
        outstanding = 0
        for hand in self.hands:
            if not hand.settled:
                outstanding += hand.shoot_bet
        return outstanding

    @property
    def shoot_capacity(self) -> int:
        """The largest Shoot bet that may be added now (table limit and per-bet limit)."""
        capacity = self.shoot - self.outstanding_shoot_bets
        limit = self.rules.max_shoot_bet
        if limit is not None and limit < capacity:
            capacity = limit
        return capacity if capacity > 0 else 0

    def wealth(self, seat: int) -> int:
        """A seat's chips including its stakes on the table and, for the banker, Shoot and reserve."""
        on_table = sum(h.stake + h.shoot_bet for h in self.hands if h.seat == seat and not h.settled)
        own_kitty = self.shoot + self.reserve if seat == self.banker else 0
        return self.balances[seat] + on_table + own_kitty

    def net_position(self, seat: int) -> int:
        """Chips won or lost over the session (for the banker, the Shoot counts as theirs)."""
        return self.wealth(seat) - self.starting_chips[seat]

    @property
    def phase(self) -> Phase:
        """What the pending decision is: the phase of the stage the table rests at."""
        return PHASE_OF_STAGE[self.stage]

    @property
    def current_hand(self) -> Hand | None:
        """The hand whose decision (or Shoot bet) is pending."""
        return self.hands[self.cursor] if self.phase in (Phase.SHOOT_BETS, Phase.PLAY) else None

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is pending, or None between deals."""
        if self.phase == Phase.STAKES:
            return self.punter_order[self.cursor]
        if self.phase in (Phase.SHOOT_BETS, Phase.PLAY):
            return self.hands[self.cursor].seat
        if self.phase in (Phase.BANKER, Phase.BANK_DECISION):
            return self.banker
        return None

    @property
    def shoot_bet_point(self) -> str | None:
        """Which Shoot betting point is open, if a Shoot bet is the pending decision."""
        if self.phase == Phase.SHOOT_BETS:
            return "before_deal" if self.stage == Stage.BET_BEFORE_DEAL else "before_second_card"
        if self.phase == Phase.PLAY and self._fourth_card_bet_due(self.hands[self.cursor]):
            return "before_fourth_card"
        return None

    # ------------------------------------------------------------------ legality
    def legal_moves(self) -> tuple[LegalMove, ...]:
        """Every legal action now, as kinds with amount ranges. Empty between deals."""
        if self._legal is None:
            self._legal = self._legal_moves()
        return self._legal

    def _legal_moves(self) -> tuple[LegalMove, ...]:
        rules = self.rules
        if self.phase == Phase.STAKES:
            moves = [LegalMove(ActionKind.STAKE, rules.min_stake, rules.max_stake)]
            if self.box > 0:
                moves.insert(0, LegalMove(ActionKind.STAKE, 0, 0))
            return tuple(moves)
        if self.phase == Phase.SHOOT_BETS:
            return (LegalMove(ActionKind.SHOOT_BET, 0, self.shoot_capacity),)
        if self.phase == Phase.PLAY:
            hand = self.hands[self.cursor]
            if self._fourth_card_bet_due(hand):
                return (LegalMove(ActionKind.SHOOT_BET, 0, self.shoot_capacity),)
            return self._hand_moves(hand)
        if self.phase == Phase.BANKER:
            moves = [LegalMove(ActionKind.STICK)]
            if rules.may_draw_on(*best_total(self.banker_cards)):
                moves.append(LegalMove(ActionKind.TWIST))
            return tuple(moves)
        if self.phase == Phase.BANK_DECISION:
            return (LegalMove(ActionKind.KEEP_BANK), LegalMove(ActionKind.SELL_BANK))
        return ()

    def _hand_moves(self, hand: Hand) -> tuple[LegalMove, ...]:
        rules = self.rules
        total, soft = best_total(hand.cards)
        moves: list[LegalMove] = []
        if total >= rules.stick_minimum:
            moves.append(LegalMove(ActionKind.STICK))
        if hand.doubled:
            if not hand.twists:
                moves.append(LegalMove(ActionKind.TWIST))
            return tuple(moves)
        if rules.may_draw_on(total, soft):
            moves.append(LegalMove(ActionKind.TWIST))
            low, high = self._buy_range(hand)
            if low <= high:
                moves.append(LegalMove(ActionKind.BUY, low, high))
        if len(hand.cards) == 2 and not hand.drew:
            if self._can_split(hand):
                moves.append(LegalMove(ActionKind.SPLIT))
            if rules.double_stakes:
                moves.append(LegalMove(ActionKind.DOUBLE))
        return tuple(moves)

    def _buy_range(self, hand: Hand) -> tuple[int, int]:
        """The chips a buy may add now, or an empty range (low > high)."""
        return buy_range(self.rules, len(hand.cards), hand.buys, hand.twists, hand.original_stake, hand.stake)

    def _can_split(self, hand: Hand) -> bool:
        rules = self.rules
        if rules.max_split_hands < 2:
            return False
        family = sum(1 for h in self.hands if h.seat == hand.seat and h.box == hand.box)
        if family >= rules.max_split_hands:
            return False
        a, b = hand.cards
        if rules.split_match == "rank":
            return a // 4 == b // 4
        return min(a // 4 + 1, 10) == min(b // 4 + 1, 10)

    def _fourth_card_bet_due(self, hand: Hand) -> bool:
        return (
            "before_fourth_card" in self.rules.shoot_bet_points
            and len(hand.cards) == 3
            and not hand.fourth_card_bet_offered
            and self.shoot_capacity > 0
        )

    def is_legal(self, action: Action) -> bool:
        return is_legal(action, self.legal_moves())

    # ------------------------------------------------------------------ deals
    def start_deal(self, stacked: Sequence[int] | str | None = None) -> None:
        """Begin the next deal. ``stacked`` (card ints or codes such as ``"AS TD 9C"``) puts those
        cards on top of the shoe in dealing order, for scripted deals."""
        if self.phase != Phase.DEAL_OVER:
            raise IllegalActionError("start_deal", self.legal_moves(), "the current deal is not over")
        if stacked is not None:  # checked (and stacked) before anything changes
            self.shoe.stack(parse_cards(stacked) if isinstance(stacked, str) else list(stacked))
        self._legal = None
        self.events = []
        if self.rules.shoe == "persistent":
            for card in self.cards_of_deal():
                self.seen_before_deal[card // 4] += 1
        self.hands = []
        self.banker_cards = []
        self.banker_face_up = []
        self.banker_revealed = False
        self.banker_forfeited = False
        self.deal_number += 1
        self._log(EventKind.DEAL_START, seat=self.banker, amount=self.deal_number)
        if stacked is not None:
            self._stacked = True
            self.seen_before_deal[:] = 0
        elif (
            self._stacked
            or self.rules.shoe == "reshuffle"
            or self.shoe.shuffles == 0
            or self.shoe.past_cut_card(self.rules.penetration)
        ):
            self.shoe.shuffle(self.rng)
            self._stacked = False
            self.seen_before_deal[:] = 0
            self._log(EventKind.SHUFFLE)
        self._deal_start_chips = (list(self.balances), self.shoot, self.reserve)
        self.stage = Stage.STAKES
        self.cursor = 0
        self.box = 0

    def apply(self, action: Action) -> None:
        """Apply the pending seat's action; raise :class:`IllegalActionError` (state unchanged)
        when it is not legal."""
        if not isinstance(action, Action):
            raise IllegalActionError(action, self.legal_moves(), "not an Action")
        if not is_int(action.amount):
            raise IllegalActionError(action, self.legal_moves(), f"amount {action.amount!r} is not a whole "
                                     "number of chips (an int)")
        action = Action(action.kind, int(action.amount))
        legal = self.legal_moves()
        if not is_legal(action, legal):
            raise IllegalActionError(action, legal)
        self._legal = None
        kind = action.kind
        if self.phase == Phase.STAKES:
            self._apply_stake(action.amount)
        elif kind == ActionKind.SHOOT_BET:
            self._apply_shoot_bet(action.amount)
        elif self.phase == Phase.PLAY:
            self._apply_hand_action(self.hands[self.cursor], action)
        elif self.phase == Phase.BANKER:
            self._log(EventKind.ACTION, seat=self.banker, note=str(action))
            if kind == ActionKind.TWIST:
                self._deal_banker_card(face_up=True)
                if self._banker_done_drawing():
                    self.stage = Stage.SETTLE
            else:
                self.stage = Stage.SETTLE
        elif self.phase == Phase.BANK_DECISION:
            self._log(EventKind.ACTION, seat=self.banker, note=str(action))
            if kind == ActionKind.SELL_BANK:
                self._sell_bank()
            self.stage = Stage.OVER
        self._advance()

    def forfeit(self) -> None:
        """The seat to act gives up, as if it had bust: its hands in play (or, while staking, a
        minimum stake) are lost; a banker's hand counts as bust; a bank decision keeps the bank.
        Environments use this for an illegal action; chips stay conserved."""
        seat = self.to_act
        if seat is None:
            raise IllegalActionError("forfeit", (), "no decision is pending")
        self._legal = None
        self._log(EventKind.FORFEIT, seat=seat)
        if self.phase == Phase.STAKES:
            self._apply_stake(self.rules.min_stake)
            self._forfeit_hand(len(self.hands) - 1)
            if self.stage == Stage.STAKES and self.punter_order[self.cursor] == seat:
                self._next_staker()
        elif self.phase in (Phase.SHOOT_BETS, Phase.PLAY):
            for index, hand in enumerate(self.hands):
                if hand.seat == seat and not hand.settled:
                    self._forfeit_hand(index)
            if self.phase == Phase.SHOOT_BETS:
                self.cursor += 1
        elif self.phase == Phase.BANKER:
            self.banker_forfeited = True
            self.stage = Stage.SETTLE
        else:
            self.stage = Stage.OVER
        self._advance()

    def _forfeit_hand(self, index: int) -> None:
        hand = self.hands[index]
        self._reveal_hand(hand, index)
        self._settle_hand(hand, index, *bust(self.rules))

    def misdeal(self) -> None:
        """Void the deal in progress (the seed's misdeal rule): every chip returns to where it was
        before the deal, the cards dealt are discarded, and the next deal starts afresh."""
        if self._deal_start_chips is None or self.stage >= Stage.BANK:
            raise IllegalActionError("misdeal", self.legal_moves(), "no deal is in progress")
        self._legal = None
        balances, shoot, reserve = self._deal_start_chips
        self.balances, self.shoot, self.reserve = list(balances), shoot, reserve
        for hand in self.hands:
            hand.settled = True
        self._log(EventKind.MISDEAL)
        self._finish_deal()

    # ------------------------------------------------------------------ staking and betting
    def _apply_stake(self, amount: int) -> None:
        seat = self.punter_order[self.cursor]
        if amount == 0:  # no further box for this punter
            self._next_staker()
            return
        hand = Hand(seat=seat, box=self.box, original_stake=amount, stake=amount)
        self.balances[seat] -= amount
        self.hands.append(hand)
        self._log(EventKind.STAKE, seat=seat, hand=len(self.hands) - 1, amount=amount, src=seat,
                  dst=TABLE_ACCOUNT)
        self.box += 1
        if self.box >= self.rules.max_boxes:
            self._next_staker()

    def _next_staker(self) -> None:
        self.cursor += 1
        self.box = 0
        if self.cursor >= len(self.punter_order):
            self.stage = Stage.BET_BEFORE_DEAL
            self.cursor = 0

    def _apply_shoot_bet(self, amount: int) -> None:
        hand = self.hands[self.cursor]
        point = self.shoot_bet_point
        if self.phase == Phase.PLAY:
            hand.fourth_card_bet_offered = True
        else:
            self.cursor += 1
        if amount:
            hand.shoot_bet += amount
            self.balances[hand.seat] -= amount
            self._log(EventKind.SHOOT_BET, seat=hand.seat, hand=self.hands.index(hand), amount=amount,
                      src=hand.seat, dst=TABLE_ACCOUNT, note=point or "")

    # ------------------------------------------------------------------ dealing
    def _draw(self) -> int:
        try:
            return self.shoe.draw()
        except ShoeExhaustedError:
            live = [c for h in self.hands if not h.settled for c in h.cards] + self.banker_cards
            self.shoe.restock(live, self.rng)
            self.seen_before_deal[:] = 0
            for hand in self.hands:
                hand.reshuffled = hand.reshuffled or hand.settled
            self._log(EventKind.SHUFFLE, note="restock")
            return self.shoe.draw()

    def _deal_to_hand(self, index: int, face_up: bool) -> int:
        hand = self.hands[index]
        card = self._draw()
        hand.cards.append(card)
        hand.face_up.append(face_up)
        self._log(EventKind.CARD, seat=hand.seat, hand=index, card=card, face_up=face_up)
        return card

    def _deal_banker_card(self, face_up: bool) -> None:
        card = self._draw()
        self.banker_cards.append(card)
        self.banker_face_up.append(face_up)
        self._log(EventKind.CARD, seat=self.banker, card=card, face_up=face_up)

    def _deal_round(self) -> None:
        for index, hand in enumerate(self.hands):
            if not hand.settled:  # a hand forfeited while staking gets no cards
                self._deal_to_hand(index, face_up=False)
        first = not self.banker_cards
        self._deal_banker_card(face_up=first and self.rules.dealer_shows_first_card)

    # ------------------------------------------------------------------ punter play
    def _apply_hand_action(self, hand: Hand, action: Action) -> None:
        index = self.cursor
        kind = action.kind
        self._log(EventKind.ACTION, seat=hand.seat, hand=index, amount=action.amount, note=str(action))
        if kind == ActionKind.STICK:
            hand.done = True
        elif kind == ActionKind.TWIST:
            hand.twists += 1
            self._deal_to_hand(index, face_up=True)
            self._after_card(hand, index)
            if hand.doubled and not hand.settled:
                hand.done = True  # Double Stakes: a single twist, then the hand stands
        elif kind == ActionKind.BUY:
            hand.buys += 1
            hand.stake += action.amount
            self.balances[hand.seat] -= action.amount
            self._log(EventKind.STAKE, seat=hand.seat, hand=index, amount=action.amount, src=hand.seat,
                      dst=TABLE_ACCOUNT, note="buy")
            self._deal_to_hand(index, face_up=not self.rules.buy_face_down)
            self._after_card(hand, index)
        elif kind == ActionKind.DOUBLE:
            hand.doubled = True
            self.balances[hand.seat] -= hand.stake
            self._log(EventKind.STAKE, seat=hand.seat, hand=index, amount=hand.stake, src=hand.seat,
                      dst=TABLE_ACCOUNT, note="double stakes")
            hand.stake *= 2
        elif kind == ActionKind.SPLIT:
            self._split(hand, index)

    def _split(self, hand: Hand, index: int) -> None:
        moved = hand.cards.pop()
        hand.face_up.pop()
        new = Hand(seat=hand.seat, box=hand.box, original_stake=hand.original_stake,
                   stake=hand.original_stake, from_split=True, cards=[moved], face_up=[False])
        hand.from_split = True
        self.balances[hand.seat] -= new.stake
        self.hands.insert(index + 1, new)
        self._log(EventKind.STAKE, seat=hand.seat, hand=index + 1, amount=new.stake, src=hand.seat,
                  dst=TABLE_ACCOUNT, note="split")
        self._deal_to_hand(index, face_up=False)
        self._after_card(hand, index)

    def _after_card(self, hand: Hand, index: int) -> None:
        """Bust, Five Card Trick, Pontoon and forced stands after a punter hand receives a card."""
        hand_class, total = hand_rank(hand, self.rules)
        if hand_class == HandClass.BUST:
            self._reveal_hand(hand, index)
            self._log(EventKind.BUST, seat=hand.seat, hand=index, amount=total)
            self._settle_hand(hand, index, *bust(self.rules))
            return
        if hand_class == HandClass.FIVE_CARD_TRICK:  # a punter hand stops at five cards
            hand.done = True
            self._reveal_hand(hand, index)
            self._log(EventKind.FIVE_CARD_TRICK, seat=hand.seat, hand=index, amount=total)
        elif hand_class == HandClass.PONTOON:
            hand.done = True
            hand.face_up[:] = [True] * len(hand.cards)
            self._log(EventKind.PONTOON, seat=hand.seat, hand=index)
        elif hand_class == HandClass.TWENTY_ONE and not self.rules.may_draw_on(*best_total(hand.cards)):
            hand.done = True

    def _reveal_hand(self, hand: Hand, index: int) -> None:
        for position, up in enumerate(hand.face_up):
            if not up:
                hand.face_up[position] = True
                self._log(EventKind.REVEAL, seat=hand.seat, hand=index, card=hand.cards[position], face_up=True)

    # ------------------------------------------------------------------ the banker
    def _banker_done_drawing(self) -> bool:
        return self.rules.banker_done_drawing(*best_total(self.banker_cards), len(self.banker_cards))

    def _reveal_banker(self) -> None:
        if not self.banker_revealed:
            self.banker_revealed = True
            for position, card in enumerate(self.banker_cards):
                if not self.banker_face_up[position]:
                    self.banker_face_up[position] = True
                    self._log(EventKind.REVEAL, seat=self.banker, card=card, face_up=True)

    # ------------------------------------------------------------------ chips
    def _move(self, amount: int, src: int, dst: int, seat: int | None, hand: int | None, note: str) -> None:
        if amount <= 0:
            return
        for account, sign in ((src, -1), (dst, 1)):
            if account == SHOOT_ACCOUNT:
                self.shoot += sign * amount
            elif account == RESERVE_ACCOUNT:
                self.reserve += sign * amount
            elif account >= 0:
                self.balances[account] += sign * amount
        self._log(EventKind.PAYMENT, seat=seat, hand=hand, amount=amount, src=src, dst=dst, note=note)

    def _add_to_shoot(self, amount: int, src: int, seat: int | None, hand: int | None, note: str) -> None:
        """Chips entering the Shoot: the reserve takes its share, the bank limit sends any excess to
        the banker."""
        rules = self.rules
        if rules.shoot_cap is not None:
            room = max(rules.shoot_cap - self.shoot - self.reserve, 0)
            excess = max(amount - room, 0)
            self._move(excess, src, self.banker, seat, hand, note + " (over the bank limit)")
            amount -= excess
        reserved = amount * rules.reserved_shoot_percent // 100
        self._move(reserved, src, RESERVE_ACCOUNT, seat, hand, note + " (reserve)")
        self._move(amount - reserved, src, SHOOT_ACCOUNT, seat, hand, note)

    def _post_shoot(self, seat: int) -> None:
        self._log(EventKind.POST_SHOOT, seat=seat, amount=self.rules.initial_shoot)
        self._add_to_shoot(self.rules.initial_shoot, seat, seat, None, "posts the Shoot")

    def _settle_hand(self, hand: Hand, index: int, outcome: Outcome, multiple: int) -> None:
        """Move a hand's chips off the table. ``multiple`` is what the stake wins or loses."""
        assert not hand.settled, f"hand {index} settled twice"
        seat, banker = hand.seat, self.banker
        stake, bet = hand.stake, hand.shoot_bet
        if outcome == Outcome.WIN:
            self._move(stake, TABLE_ACCOUNT, seat, seat, index, "stake returned")
            self._move(multiple * stake, banker, seat, seat, index, "banker pays")
            self._move(bet, TABLE_ACCOUNT, seat, seat, index, "Shoot bet returned")
            self._move(bet, SHOOT_ACCOUNT, seat, seat, index, "Shoot pays")
            hand.won_from_shoot = bet
        elif outcome == Outcome.PUSH:
            self._move(stake, TABLE_ACCOUNT, seat, seat, index, "stake returned (tie)")
            self._move(bet, TABLE_ACCOUNT, seat, seat, index, "Shoot bet returned (tie)")
        else:
            progressive = min(self.rules.progressive_shoot_chips, stake)
            self._move(stake - progressive, TABLE_ACCOUNT, banker, seat, index, "stake lost")
            if progressive:
                self._add_to_shoot(progressive, TABLE_ACCOUNT, seat, index, "progressive Shoot")
            self._move((multiple - 1) * stake, seat, banker, seat, index, "pays the banker's Pontoon")
            if bet:
                self._add_to_shoot(bet, TABLE_ACCOUNT, seat, index, "Shoot bet lost")
        per_stake, per_bet = net(outcome, multiple)
        hand.result = per_stake * stake + per_bet * bet
        hand.settled = True
        hand.done = True
        self._log(EventKind.RESULT, seat=seat, hand=index, amount=hand.result, note=outcome.name.lower())

    def _settle_showdown(self) -> None:
        """The banker collects from losing hands first, then pays winning hands, in dealing order."""
        banker = banker_rank(self.banker_cards, self.rules)
        if self.banker_forfeited:
            banker = HandRank(HandClass.BUST, 0)
        for i, hand in enumerate(self.hands):
            if not hand.settled:
                self._reveal_hand(hand, i)
        results = [(i, h, *showdown(h, banker, self.rules)) for i, h in enumerate(self.hands) if not h.settled]
        for i, hand, outcome, multiple in results:
            if outcome != Outcome.WIN:
                self._settle_hand(hand, i, outcome, multiple)
        for i, hand, outcome, multiple in results:
            if outcome == Outcome.WIN:
                self._settle_hand(hand, i, outcome, multiple)

    def _banker_pontoon_on_peek(self) -> None:
        """Every hand meets the banker's Pontoon at once, by the showdown's own rule (so a punter's
        Pontoon pushes under ``ties="push"``, as it would at a no-peek showdown)."""
        self._reveal_banker()
        self._log(EventKind.PONTOON, seat=self.banker, note="peek")
        banker = banker_rank(self.banker_cards, self.rules)
        for i, hand in enumerate(self.hands):
            if not hand.settled:
                self._reveal_hand(hand, i)
                self._settle_hand(hand, i, *showdown(hand, banker, self.rules))

    def _end_of_deal_bank(self) -> bool:
        """Bank turnover when the deal emptied the Shoot. Returns whether the bank passed."""
        if not self.rules.shoot or self.shoot > 0:
            return False
        self._pay_reserve_jackpot()
        old = self.banker
        self.banker = (old + 1) % self.num_players
        self.turnovers += 1
        self._log(EventKind.TURNOVER, seat=self.banker, src=old, dst=self.banker)
        self._post_shoot(self.banker)
        return True

    def _pay_reserve_jackpot(self) -> None:
        """Reserved Shoot: the reserve goes to this deal's Shoot winners, pro rata to their bets."""
        winners = [(i, h) for i, h in enumerate(self.hands) if h.won_from_shoot]
        total = sum(h.won_from_shoot for _, h in winners)
        if not self.reserve:
            return
        if not winners:  # cannot happen through play; keep chips with the banker who posted them
            self._move(self.reserve, RESERVE_ACCOUNT, self.banker, self.banker, None, "reserve returned")
            return
        jackpot = self.reserve
        shares = [jackpot * h.won_from_shoot // total for _, h in winners]
        shares[0] += jackpot - sum(shares)
        for (i, hand), share in zip(winners, shares):
            self._move(share, RESERVE_ACCOUNT, hand.seat, hand.seat, i, "reserve jackpot")

    def _sell_bank(self) -> None:
        seller = self.banker
        buyer = (seller + 1) % self.num_players
        self._move(self.shoot, SHOOT_ACCOUNT, seller, seller, None, "seller takes back the Shoot")
        self._move(self.reserve, RESERVE_ACCOUNT, seller, seller, None, "seller takes back the reserve")
        self._move(self.rules.bank_sale_price, buyer, seller, buyer, None, "price of the bank")
        self.banker = buyer
        self._log(EventKind.BANK_SALE, seat=buyer, amount=self.rules.bank_sale_price, src=seller, dst=buyer)
        self._post_shoot(buyer)

    # ------------------------------------------------------------------ flow
    def _advance(self) -> None:
        """Run automatic stages until a decision is pending or the deal is over."""
        while True:
            stage = self.stage
            if stage == Stage.STAKES:
                return
            if stage in (Stage.BET_BEFORE_DEAL, Stage.BET_BEFORE_SECOND):
                point = "before_deal" if stage == Stage.BET_BEFORE_DEAL else "before_second_card"
                while self.cursor < len(self.hands) and self.hands[self.cursor].settled:
                    self.cursor += 1
                if point in self.rules.shoot_bet_points and self.cursor < len(self.hands) and self.shoot_capacity > 0:
                    return
                self.stage = Stage(stage + 1)
            elif stage in (Stage.FIRST_CARDS, Stage.SECOND_CARDS):
                self._deal_round()
                self.stage = Stage(stage + 1)
                self.cursor = 0
            elif stage == Stage.PEEK:
                self.stage = Stage.PLAY
                self.cursor = -1
                if self.rules.banker_peek:
                    self._log(EventKind.PEEK, seat=self.banker)
                    if is_pontoon_pair(self.banker_cards):
                        self._banker_pontoon_on_peek()
                        self.stage = Stage.BANK
                        continue
                self._next_hand()
            elif stage == Stage.PLAY:
                hand = self.hands[self.cursor]
                if hand.done or hand.settled:
                    self._next_hand()
                    continue
                return
            elif stage == Stage.BANKER:
                if all(h.settled for h in self.hands):
                    self._reveal_banker()
                    self.stage = Stage.BANK
                    continue
                self._reveal_banker()
                if self._banker_done_drawing():
                    self.stage = Stage.SETTLE
                elif self.rules.banker_play == "dealer":
                    self._deal_banker_card(face_up=True)
                else:
                    return
            elif stage == Stage.SETTLE:
                self._settle_showdown()
                self.stage = Stage.BANK
            elif stage == Stage.BANK:
                passed = self._end_of_deal_bank()
                self._log(EventKind.DEAL_END, seat=self.banker)
                if not passed and self.rules.bank_sale:
                    self._deal_start_chips = None
                    return
                self.stage = Stage.OVER
            else:  # Stage.OVER
                self._finish_deal()
                return

    def _next_hand(self) -> None:
        """Move the cursor to the next punter hand; give a split hand its second card."""
        self.cursor += 1
        if self.cursor >= len(self.hands):
            self.stage = Stage.BANKER
            return
        hand = self.hands[self.cursor]
        if len(hand.cards) == 1:
            self._deal_to_hand(self.cursor, face_up=False)
            self._after_card(hand, self.cursor)
        elif len(hand.cards) == 2 and hand_rank(hand, self.rules).hand_class == HandClass.PONTOON:
            hand.done = True
            hand.face_up[:] = [True, True]
            self._log(EventKind.PONTOON, seat=hand.seat, hand=self.cursor)

    def cards_of_deal(self) -> list[int]:
        """Cards this deal took out of the current stock (not those a restock put back)."""
        return [c for h in self.hands if not h.reshuffled for c in h.cards] + self.banker_cards

    def _finish_deal(self) -> None:
        self.stage = Stage.OVER
        self._deal_start_chips = None

    def _log(self, kind: EventKind, seat: int | None = None, hand: int | None = None, card: int | None = None,
             face_up: bool = False, amount: int = 0, src: int | None = None, dst: int | None = None,
             note: str = "") -> None:
        self.events.append(_new_event(Event, (kind, seat, hand, card, face_up, amount, src, dst, note)))

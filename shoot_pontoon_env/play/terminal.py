"""``python -m shoot_pontoon_env.play``: sit at a Pontoon table in the terminal against rule-based players,
the solver's (``optimal``, ``basic``) or trained ones (a model ``.zip`` or run folder, with the train
extra; ``zoo:NAME`` from a checkout): every name ``python -m evaluate`` accepts.

You see what your seat may see: your own cards, the others' face-up cards, the Shoot, the stakes. At
each of your decisions the legal moves are listed with their keys; amounts (stakes, Shoot bets, buys)
are asked for within the legal range. Anything else is refused with a message and asked again. Each
deal ends with its settlement explained and the running chip count; the bank passes as the rules say
(an emptied Shoot, or a sale). Under the casino rules (``casino``, ``playtech``) the banker is the
dealer, who draws by the house rule and keeps the deal. ``q`` or end of input leaves the table.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

import numpy as np

from ..actions import Action, ActionKind, LegalMove
from ..cards import HandClass, best_total, card_code
from ..cli import Parser, UsageError, run
from ..engine.events import RESERVE_ACCOUNT, SHOOT_ACCOUNT, Event, EventKind
from ..engine.settlement import banker_rank, hand_rank
from ..engine.table import MAX_PLAYERS, MIN_PLAYERS, Phase, Table
from ..engine.view import HandView, SeatView, seat_view
from ..envs.render import (
    advance_labels,
    banker_role,
    banker_value,
    describe_rank,
    event_line,
    hand_value,
    total_text,
)
from ..models.resolve import PLAYER_NAMES, make_policy
from ..players.policy import Policy
from ..rules import CHIP_LIMIT, PRESETS, Rules, get_rules

KEYS: dict[ActionKind, tuple[str, str]] = {
    ActionKind.STICK: ("s", "stick"),
    ActionKind.TWIST: ("t", "twist"),
    ActionKind.BUY: ("b", "buy"),
    ActionKind.SPLIT: ("p", "split"),
    ActionKind.DOUBLE: ("d", "double stakes"),
    ActionKind.KEEP_BANK: ("k", "keep the bank"),
    ActionKind.SELL_BANK: ("x", "sell the bank"),
}
"""The key of every move that is not a bare amount (stakes and Shoot bets are typed as numbers)."""
MOVE_WORDS: dict[ActionKind, str] = {
    ActionKind.STICK: "sticks",
    ActionKind.TWIST: "twists",
    ActionKind.BUY: "buys a card for {amount} chips",
    ActionKind.SPLIT: "splits",
    ActionKind.DOUBLE: "doubles the stakes",
    ActionKind.KEEP_BANK: "keeps the bank",
    ActionKind.SELL_BANK: "sells the bank",
}
"""A move as the log tells it (the Table logs the action's identifier, ``keep_bank``)."""
QUIT = ("q", "quit")
NAME_WIDTH = 12
"""The column of seat names in the table and the chip counts (a longer name is cut: ``name_cell``)."""
SEED_MAX = 2**63 - 1
"""Largest ``--seed``, as ``simulate --seed``: NumPy's Generator here would take any size, but a seed
is printed to be typed again, and one bound for every command keeps a seed a 64-bit int."""
QUIET_EVENTS = (EventKind.PAYMENT, EventKind.DEAL_END)
"""Log entries not echoed during play: the settlement summary says where the chips went."""


class Leave(Exception):
    """The player typed q, or the input ended."""


class Console:
    """Prompts and messages on the given streams (stdin/stdout by default, tests pass their own)."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: str) -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:  # end of input
            self.say()
            raise Leave
        if not self.stdin.isatty():  # a transcript reads like the terminal: the answer after its prompt
            self.stdout.write(line if line.endswith("\n") else line + "\n")
        answer = line.strip().lower()
        if answer in QUIT:
            raise Leave
        return answer


# --------------------------------------------------------------------------- what the player sees
def dealer_rule(rules: Rules) -> str:
    """The dealer's drawing rule (``banker_play="dealer"``) in the words of the casino seeds (004:
    "hits on 16 and soft 17 / stands on hard 17")."""
    if rules.dealer_hits_soft_17 and rules.dealer_stands_on == 17:
        return "hits soft 17, stands on hard 17"
    return f"stands on {rules.dealer_stands_on}"


def fixed_dealer(rules: Rules) -> bool:
    """Whether the first banker deals every deal as the house dealer: a fixed drawing rule and no
    Shoot, so the bank never passes (only an emptied or a sold Shoot passes it) and that seat's
    player never decides anything."""
    return rules.banker_play == "dealer" and not rules.shoot


def seat_names(rules: Rules, seat: int, banker: int, players: Sequence[Policy]) -> list[str]:
    """Each seat's name at the table: you, the dealer of a casino table, else its player's."""
    return ["you" if s == seat else "dealer" if s == banker and fixed_dealer(rules) else p.name
            for s, p in enumerate(players)]


def table_keys(rules: Rules) -> list[ActionKind]:
    """The keyed moves these rules have, in the order of ``KEYS``: buys, splits, Double Stakes and
    the bank sale are options of the rules."""
    optional = {ActionKind.BUY: rules.buys_allowed, ActionKind.SPLIT: rules.max_split_hands > 1,
                ActionKind.DOUBLE: rules.double_stakes, ActionKind.KEEP_BANK: rules.bank_sale,
                ActionKind.SELL_BANK: rules.bank_sale}
    return [kind for kind in KEYS if optional.get(kind, True)]


def legend(rules: Rules) -> str:
    """The keys and typed amounts of this table, and nothing the rules do not have."""
    amounts = "stakes and Shoot bets are" if rules.shoot and rules.shoot_bet_points else "stakes are"
    keys = ", ".join(f"{KEYS[kind][0]} {KEYS[kind][1]}" for kind in table_keys(rules))
    return (f"Keys: {keys}; {amounts} typed as numbers of chips; q leaves.\n"
            "Cards: [8D] is one of yours lying face down (only you see it), ?? one you cannot see.")


def sale_buyer(banker: int, num_players: int) -> int:
    """Who buys a sold bank: the next seat, the one a turnover would give it (docs/RULES.md, 13)."""
    return (banker + 1) % num_players


def kitty_text(shoot: int, reserve: int) -> str:
    return f"the Shoot of {shoot}" + (f" and the reserve of {reserve}" if reserve else "")


def sale_offer(view: SeatView) -> str:
    """The sale as the banker is offered it: the buyer, the price (``bank_sale_price``), and the Shoot
    (and reserve) that the seller takes back, as ``Table._sell_bank`` moves them."""
    price = view.rules.bank_sale_price
    return (f"sell the bank to seat {sale_buyer(view.banker, view.num_players)} for {price} chips, taking "
            f"back {kitty_text(view.shoot, view.reserve)} ({price + view.shoot + view.reserve} chips in all)")


def log_line(event: Event, viewer: int, role: str, before: Sequence[Event], label: str | None = None) -> str:
    """One log entry as ``viewer`` may read it, in words: moves and results by name, the banker by its
    role, and a sale with all the seller gets (the payments logged just ``before`` it); the rest as
    the env's picture writes it (``event_line``). ``label``: the hand's label, which stays the same
    for the whole deal (``envs.render.advance_labels``: a split hand 2 goes on as 2a and 2b)."""
    if label is None and event.hand is not None:
        label = str(event.hand)
    who = f"seat {event.seat}" + (f" hand {label}" if label is not None else "")
    if event.kind == EventKind.ACTION:  # the note is the action as str(Action) writes it: "buy 4"
        kind = ActionKind[event.note.split(" ")[0].upper()]
        return f"{who} {MOVE_WORDS[kind].format(amount=event.amount)}"
    if event.kind == EventKind.RESULT:
        if event.amount:
            return f"{who} {'wins' if event.amount > 0 else 'loses'} {abs(event.amount)}"
        return f"{who} gets its stake back"
    if event.kind == EventKind.BANK_SALE:
        payments = []
        for earlier in reversed(before):
            if earlier.kind != EventKind.PAYMENT:
                break
            payments.append(earlier)
        shoot = sum(e.amount for e in payments if e.src == SHOOT_ACCOUNT)
        reserve = sum(e.amount for e in payments if e.src == RESERVE_ACCOUNT)
        return (f"seat {event.dst} buys the bank for {event.amount} chips; seat {event.src} takes back "
                f"{kitty_text(shoot, reserve)}: {event.amount + shoot + reserve} chips in all")
    return event_line(event, viewer, label, role)


def cards_text(cards: Sequence[int], hidden: int = 0, face_up: Sequence[bool] | None = None) -> str:
    """Cards by their codes, ``??`` for each one the seat may not see. ``face_up`` (the seat's own
    cards): those lying face down, which only this seat sees, are marked ``[8D]``."""
    codes = [card_code(c) if face_up is None or face_up[i] else f"[{card_code(c)}]"
             for i, c in enumerate(cards)]
    return " ".join(codes + ["??"] * hidden) or "-"


def name_cell(name: str) -> str:
    """A seat's name cut or padded to ``NAME_WIDTH`` so that the chip column stays put (the whole
    name is in the introduction)."""
    return (name if len(name) <= NAME_WIDTH else name[:NAME_WIDTH - 2] + "..").ljust(NAME_WIDTH)


def hand_text(hand: HandView, rules: Rules, label: str, face_up: Sequence[bool] | None = None) -> str:
    shown = f"hand {label}: {cards_text(hand.cards, hand.hidden_cards, face_up)}"
    if hand.cards:
        shown += f" ({hand_value(hand, rules)})"
    shown += f", stake {hand.stake}" + (f", Shoot bet {hand.shoot_bet}" if hand.shoot_bet else "")
    if hand.settled:
        shown += f"  [settled {hand.result:+d}]"
    elif hand.done:
        shown += "  [stands]"
    return shown


def table_text(table: Table, view: SeatView, names: Sequence[str], labels: Sequence[str] | None = None
               ) -> str:
    """The table as ``view``'s seat sees it, each hand under its label (``labels``, by hand index)."""
    rules = table.rules
    lines = [f"Shoot {table.shoot}" + (f" (reserve {table.reserve})" if table.reserve else "")
             + f", room for Shoot bets {table.shoot_capacity}" if rules.shoot else "No Shoot at this table"]
    for seat in range(table.num_players):
        who = f"seat {seat} {name_cell(names[seat])} chips {table.balances[seat]:>6}"
        if seat == table.banker:
            value = (f" ({banker_value(view.banker_cards, view.banker_hidden, rules)})"
                     if view.banker_cards else "")
            up = table.banker_face_up if seat == view.seat else None
            lines.append(f"  {who}  {banker_role(rules).upper()}: "
                         f"{cards_text(view.banker_cards, view.banker_hidden, up)}{value}")
            continue
        hands = [(i, h) for i, h in enumerate(view.hands) if h.seat == seat]
        lines.append(f"  {who}" + ("" if hands else "  no hand"))
        for i, hand in hands:
            up = table.hands[i].face_up if seat == view.seat else None
            label = labels[i] if labels is not None and i < len(labels) else str(i)
            lines.append(f"      {hand_text(hand, rules, label, up)}"
                         + ("   <- your decision" if i == view.current else ""))
    return "\n".join(lines)


def amount_prompt(move: LegalMove, what: str) -> str:
    return f"{what} {move.low}" if move.low == move.high else f"{what} {move.low}..{move.high}"


def refusal(kind: ActionKind, view: SeatView) -> str:
    """Why a key of this table's moves is not allowed now, in the rules' terms (empty: no reason
    beyond the list of the legal moves)."""
    rules, hand = view.rules, view.current_hand
    if kind in (ActionKind.KEEP_BANK, ActionKind.SELL_BANK):
        return "the banker keeps or sells the bank once the deal is settled"
    if view.phase == Phase.BANKER:
        total = total_text(view.banker_cards)
        return f"the {banker_role(rules)} may not draw on {total}" if kind == ActionKind.TWIST else ""
    if hand is None:
        return ""
    total, soft = best_total(hand.cards)
    if kind == ActionKind.STICK:
        return (f"you may not stick on {total_text(hand.cards)}: a hand sticks only on {rules.stick_minimum} "
                f"or more (the stick minimum of these rules)")
    if kind in (ActionKind.TWIST, ActionKind.BUY) and not rules.may_draw_on(total, soft):
        return f"a hand of {total_text(hand.cards)} may not draw (draw_on_21 = {rules.draw_on_21!r})"
    if kind in (ActionKind.BUY, ActionKind.SPLIT) and hand.doubled:
        return "a hand whose stakes are doubled takes one card by a twist, and stands"
    if kind == ActionKind.BUY:
        if hand.twists and not rules.buy_after_twist:
            return "a hand that has twisted may not buy (these rules)"
        if rules.max_buys is not None and hand.buys >= rules.max_buys:
            return f"a hand buys at most {rules.max_buys} time(s)"
        if rules.max_stake_multiple is not None:
            return (f"the stake of {hand.stake} may not pass {rules.max_stake_multiple} times the hand's "
                    f"first stake of {hand.original_stake}")
    if kind in (ActionKind.SPLIT, ActionKind.DOUBLE) and (len(hand.cards) != 2 or hand.twists or hand.buys):
        move = "split" if kind == ActionKind.SPLIT else "double the stakes"
        return f"only a hand's first two cards may {move}"
    if kind == ActionKind.SPLIT:
        a, b = hand.cards
        same_value = min(a // 4 + 1, 10) == min(b // 4 + 1, 10)
        if not (a // 4 == b // 4 if rules.split_match == "rank" else same_value):
            return f"only two cards of the same {rules.split_match} split"
        return f"a box splits into at most {rules.max_split_hands} hands"
    return ""


# --------------------------------------------------------------------------- the player's decisions
def ask_amount(console: Console, kind: ActionKind, moves: Sequence[LegalMove], prompt: str,
               text: str | None = None, can_go_back: bool = False) -> Action | None:
    """Ask for chips until the answer is a whole number that one of ``moves`` allows (None: an empty
    answer where ``can_go_back``, back to the list of moves)."""
    allowed = " or ".join(f"{m.low}" if m.low == m.high else f"{m.low}..{m.high}" for m in moves)
    while True:
        answer = text if text is not None else console.ask(prompt)
        text = None
        if can_go_back and not answer:
            return None
        try:
            amount = int(answer)
        except ValueError:
            back = ", Enter goes back" if can_go_back else ""
            console.say(f"  {answer!r} is not a number of chips: type a whole number, {allowed} (q quits{back})")
            continue
        if any(m.low <= amount <= m.high for m in moves):
            return Action(kind, amount)
        console.say(f"  {amount} is not allowed here: the amount must be {allowed}")


def choose(console: Console, view: SeatView) -> Action:
    """The player's action for a decision: an amount for stakes and Shoot bets, a key otherwise."""
    kinds = [m.kind for m in view.legal]
    if kinds[0] == ActionKind.STAKE:
        stakes = [m for m in view.legal if m.high > 0]
        extra = ", 0 for no further box" if any(m.high == 0 for m in view.legal) else ""
        prompt = f"Your stake ({' or '.join(amount_prompt(m, 'chips').split(' ', 1)[1] for m in stakes)} chips{extra}): "
        return ask_amount(console, ActionKind.STAKE, view.legal, prompt)
    if kinds[0] == ActionKind.SHOOT_BET:
        point = (view.shoot_bet_point or "").replace("_", " ")
        prompt = f"Shoot bet {point} (0..{view.legal[0].high} chips, 0 for none): "
        return ask_amount(console, ActionKind.SHOOT_BET, view.legal, prompt)
    menu = []
    for move in view.legal:
        key, label = KEYS[move.kind]
        if move.kind == ActionKind.BUY:
            label = amount_prompt(move, label) + " chips"
        elif move.kind == ActionKind.SELL_BANK:
            label = sale_offer(view)
        menu.append(f"[{key}] {label}")
    prompt = "  ".join(menu) + "  [q] quit\nYour move: "
    by_key = {KEYS[m.kind][0]: m for m in view.legal}
    while True:
        answer = console.ask(prompt)
        key, _, rest = answer.partition(" ")
        move = by_key.get(key)
        if move is None:
            keys = ", ".join(by_key)
            known = next((kind for kind, (k, _) in KEYS.items() if k == key and not rest), None)
            reason = refusal(known, view) if known is not None else ""
            reason = reason or f"{answer!r} is not a legal move here"
            console.say(f"  {reason}: type one of {keys} (q quits)")
            continue
        if move.kind == ActionKind.BUY and move.low == move.high and not rest.strip():
            return Action(ActionKind.BUY, move.low)  # the menu says the only amount: "[b] buy 2 chips"
        if move.kind == ActionKind.BUY:
            action = ask_amount(console, ActionKind.BUY, [move],
                                f"Buy for how many chips ({move.low}..{move.high}, Enter goes back)? ",
                                rest.strip() or None, can_go_back=True)
            if action is None:
                continue
            return action
        if rest.strip():
            console.say(f"  {KEYS[move.kind][1]} takes no amount: type {key} alone")
            continue
        return Action(move.kind)


# --------------------------------------------------------------------------- a session
class Session:
    """One person at a table of players; ``run`` plays deals until ``deals`` or the person leaves."""

    def __init__(self, rules: Rules, seats: int, seat: int, players: Sequence[Policy], seed: int,
                 starting_chips: int, console: Console) -> None:
        rng = np.random.default_rng(seed)
        self.table = Table(rules, seats, rng=np.random.default_rng(int(rng.integers(2**63))),
                           starting_chips=starting_chips)
        self.rng = rng
        self.seat = seat
        self.players = list(players)
        self.console = console
        self.role = banker_role(rules)
        self.names = seat_names(rules, seat, self.table.banker, players)
        self._shown = 0
        self._labels: list[str] = []
        """Each hand's label this deal, kept up to date with the log as it is echoed."""

    def run(self, deals: int | None) -> int:
        say = self.console.say
        try:
            played = 0
            while deals is None or played < deals:
                if played:
                    self.console.ask("Press Enter for the next deal (q to leave): ")
                self.play_deal()
                played += 1
        except Leave:
            say("You leave the table.")
        say(self.chip_count("Final chips"))
        return 0

    def play_deal(self) -> None:
        table, say = self.table, self.console.say
        table.start_deal()
        self._shown = 0
        self._labels = []
        role = f"the {self.role}" if table.banker == self.seat else "a punter"
        holder = f"seat {table.banker} " + ("is the dealer" if self.role == "dealer" else "holds the bank")
        say(f"\n=== Deal {table.deal_number}: {holder}; you (seat {self.seat}) are {role} ===")
        explained = False
        while table.to_act is not None:
            if not explained and table.phase == Phase.BANK_DECISION:
                self.explain()
                explained = True
            seat = table.to_act
            view = seat_view(table, seat)
            if seat == self.seat:
                self.echo_events()
                say(table_text(table, view, self.names, self._labels))
                action = choose(self.console, view)
            else:
                action = self.players[seat].act(view, self.rng)
            table.apply(action)
        if not explained:
            self.explain()
        self.echo_events()
        say(self.chip_count("Chips"))

    def echo_events(self) -> None:
        events, labels = self.table.events, self._labels
        for at in range(self._shown, len(events)):
            event = events[at]
            advance_labels(labels, event)
            if event.kind not in QUIET_EVENTS:
                label = labels[event.hand] if event.hand is not None and event.hand < len(labels) else None
                self.console.say(f"  . {log_line(event, self.seat, self.role, events[:at], label)}")
        self._shown = len(events)

    def explain(self) -> None:
        """Each hand's result against the banker's, as the player's seat sees them (all shown by now)."""
        self.echo_events()
        table, say = self.table, self.console.say
        view = seat_view(table, self.seat)
        rules = table.rules
        banker = banker_rank(view.banker_cards, rules)
        say(f"Settlement: the {self.role} (seat {table.banker}) has "
            f"{cards_text(view.banker_cards, view.banker_hidden)} = {describe_rank(banker)}")
        for index, hand in enumerate(view.hands):
            rank = hand_rank(hand, rules)  # reads only cards and from_split, as a HandView has them
            owner = "you" if hand.seat == self.seat else f"seat {hand.seat}"
            if sum(h.seat == hand.seat for h in view.hands) > 1 and index < len(self._labels):
                owner += f" (hand {self._labels[index]})"
            if hand.result > 0:
                outcome = f"wins {hand.result}" + (f" (of which {hand.shoot_bet} from the Shoot)"
                                                   if hand.shoot_bet else "")
            elif hand.result < 0:
                outcome = f"loses {-hand.result}" + (f" (a Shoot bet of {hand.shoot_bet} goes into the Shoot)"
                                                     if hand.shoot_bet else "")
            else:
                outcome = "gets its stake back"
            reason = ("bust" if rank.hand_class == HandClass.BUST
                      else f"{describe_rank(rank)} against {describe_rank(banker)}")
            say(f"  {owner}: {cards_text(hand.cards, hand.hidden_cards)} = {reason}: {outcome}")
        if rules.shoot:
            say(f"  The Shoot now holds {table.shoot}.")

    def chip_count(self, title: str) -> str:
        table = self.table
        parts = []
        for seat in range(table.num_players):
            net = table.net_position(seat)
            bank = ("" if seat != table.banker else f" ({self.role}, with the Shoot)" if table.rules.shoot
                    else f" ({self.role})")
            parts.append(f"  seat {seat} {name_cell(self.names[seat])} {table.wealth(seat):>6}{bank}  "
                         f"net {net:+d}")
        return f"{title} {self.deals_text()}:\n" + "\n".join(parts)

    def deals_text(self) -> str:
        """How many deals were played to the end, and an unfinished one (its stakes counted as their
        owners'): the deal number counts a deal from its start."""
        table = self.table
        unfinished = table.phase != Phase.DEAL_OVER
        finished = table.deal_number - unfinished
        text = (f"after {finished} deal{'s' * (finished != 1)}" if finished
                else "before any deal was played")
        if unfinished:
            text += (" (a deal left unfinished: its stakes counted as their owners')" if finished
                     else " (the first deal left unfinished: its stakes counted as their owners')")
        return text


# --------------------------------------------------------------------------- command line
def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m shoot_pontoon_env.play", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="shoot",
                        help=f"rule preset ({', '.join(sorted(PRESETS))}) or a preset with changed options as "
                             'JSON, e.g. \'{"preset": "shoot", "max_shoot_bet": 2}\'')
    parser.add_argument("--seats", type=int, default=4, help="seats at the table, you included (2..10)")
    parser.add_argument("--seat", type=int, default=1, help="your seat (0 holds the first bank; 1 plays first)")
    parser.add_argument("--opponents", nargs="+", default=["tips"], metavar="SPEC",
                        help="one for every other seat or one per seat in seat order: a player by name "
                             f"({PLAYER_NAMES}), zoo:NAME (from a checkout), a model .zip or its run folder "
                             "(with the train extra), or PUNTER/BANKER for one player per role; under the "
                             "casino rules the dealer (seat 0) draws by the house rule whatever is given")
    parser.add_argument("--seed", type=int, default=None, help="seed of the shuffles, 0..2**63-1 (default: fresh)")
    parser.add_argument("--deals", type=int, default=None, help="leave after this many deals (default: until q)")
    parser.add_argument("--chips", type=int, default=1000, help=f"each seat's chips at the start, 0..{CHIP_LIMIT}")
    return parser


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    args = build_parser().parse_args(argv)
    args.rules = parse_rules(args.rules)
    if not MIN_PLAYERS <= args.seats <= MAX_PLAYERS:
        raise UsageError(f"--seats {args.seats}: expected {MIN_PLAYERS}..{MAX_PLAYERS}")
    if not 0 <= args.seat < args.seats:
        raise UsageError(f"--seat {args.seat}: expected 0..{args.seats - 1} at a table of {args.seats}")
    if len(args.opponents) not in (1, args.seats - 1):
        raise UsageError(f"--opponents: expected 1 or {args.seats - 1} specs, got {len(args.opponents)}")
    if args.deals is not None and args.deals < 1:
        raise UsageError(f"--deals {args.deals}: expected at least 1")
    if not 0 <= args.chips <= CHIP_LIMIT:
        raise UsageError(f"--chips {args.chips}: expected 0..{CHIP_LIMIT} (the package's CHIP_LIMIT)")
    if args.seed is not None and not 0 <= args.seed <= SEED_MAX:
        raise UsageError(f"--seed {args.seed}: expected 0..{SEED_MAX} (2**63 - 1, as the other commands)")
    return args


def opponent(spec: str, rules: Rules, seats: int, chips: int) -> Policy:
    """An ``--opponents`` spec's player, by the package's one resolver (``models.resolve.make_policy``):
    ``NAME`` (a player by name, or a trained model that plays its own role and the other by rule), or
    ``PUNTER/BANKER`` (one player for each role). A player by name is a strategy, ``thresholdN`` or the
    solver's ``optimal`` (solved against a banker standing on 17, as the rule-based players bank, for
    Shoot bets of any amount up to the posted Shoot) or ``basic``; a trained model is ``zoo:NAME``, a
    model ``.zip`` path or a run folder holding ``model.zip``. A bad spec is one ``error:`` line."""
    try:
        return make_policy(spec, rules=rules, num_players=seats, starting_chips=chips, label="--opponents",
                           seats_option="--seats")
    except ValueError as error:
        raise UsageError(str(error)) from None


def parse_rules(text: str) -> Rules:
    """``--rules``: a preset name, or a JSON mapping of a preset and the options it changes."""
    if not text.lstrip().startswith("{"):
        if text not in PRESETS:
            raise UsageError(f"--rules {text!r}: expected one of {sorted(PRESETS)} or a JSON rules spec")
        return PRESETS[text]
    try:
        return get_rules(json.loads(text))
    except json.JSONDecodeError as error:
        raise UsageError(f"--rules {text!r}: not JSON ({error.msg})") from None
    except ValueError as error:  # RulesError: the option and what it allows
        raise UsageError(f"--rules {text!r}: {error}") from None


def introduction(session: Session) -> str:
    """Who sits where: you, the others by name, and how the dealer draws where the rules fix it."""
    table, you, rules = session.table, session.seat, session.table.rules
    rule = dealer_rule(rules)
    dealer = table.banker if fixed_dealer(rules) else None
    names = [f"the dealer ({rule})" if s == dealer else name for s, name in enumerate(session.names)]
    text = f"You are seat {you}" + (f", the dealer ({rule}): you draw by the rule and decide nothing"
                                    if you == dealer else "")
    text += "; the others: " + ", ".join(f"seat {s} {name}" for s, name in enumerate(names) if s != you) + "."
    if rules.banker_play == "dealer" and dealer is None:
        text += f" Whoever holds the bank draws by the dealer's rule: {rule}."
    return text


def main(argv: Sequence[str] | None = None, console: Console | None = None) -> int:
    """The command line: one ``error: ...`` line and exit status 2 for a mistake (``--debug``: traceback)."""
    return run(lambda args: play(args, console or Console()), argv)


def play(argv: list[str], console: Console) -> int:
    args = parse(argv)
    rules = args.rules
    try:
        Table.check_size(rules, args.seats)
    except ValueError as problem:
        raise UsageError(f"--seats {args.seats}: {problem}") from None
    specs = args.opponents * (args.seats - 1) if len(args.opponents) == 1 else args.opponents
    others = [opponent(spec, rules, args.seats, args.chips) for spec in specs]
    players = others[:args.seat] + [make_policy("stand17")] + others[args.seat:]  # your seat: unused
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**32)
    session = Session(rules, args.seats, args.seat, players, seed, args.chips, console)
    console.say(f"Pontoon ({rules.name}), {args.seats} seats, seed {seed}. {introduction(session)}")
    console.say(legend(rules))
    return session.run(args.deals)


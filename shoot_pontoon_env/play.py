"""``python -m shoot_pontoon_env.play``: sit at a Pontoon table in the terminal against rule-based players
or trained ones (a model ``.zip`` or run folder, with the train extra; ``zoo:NAME`` from a checkout).

You see what your seat may see: your own cards, the others' face-up cards, the Shoot, the stakes. At
each of your decisions the legal moves are listed with their keys; amounts (stakes, Shoot bets, buys)
are asked for within the legal range. Anything else is refused with a message and asked again. Each
deal ends with its settlement explained and the running chip count; the bank passes as the rules say
(an emptied Shoot, or a sale). ``q`` or end of input leaves the table.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import numpy as np

from .actions import Action, ActionKind, LegalMove
from .cards import HandClass, HandRank, best_total, card_code
from .engine.events import EventKind
from .engine.settlement import banker_rank, hand_rank
from .engine.table import MAX_PLAYERS, MIN_PLAYERS, Phase, Table
from .engine.view import HandView, SeatView, seat_view
from .envs.render import event_line
from .cli import Parser, UsageError, run
from .rules import CHIP_LIMIT, PRESETS, Rules, get_rules
from .strategies import STRATEGIES, Strategy, make_strategy

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
QUIT = ("q", "quit")
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


# --------------------------------------------------------------------------- opponents
class RoleSplit(Strategy):
    """One player for punting and another for banking: a seat keeps its player when the bank moves."""

    def __init__(self, punter: Strategy, banker: Strategy, name: str) -> None:
        self.punter, self.banker, self.name = punter, banker, name

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        return (self.banker if view.is_banker else self.punter).act(view, rng)


def checkout_zoo() -> Path | None:
    """The model zoo of a checkout of the repository (``agents/zoo``, which ``zoo:NAME`` names), where
    Python finds the checkout's folders: on ``sys.path``, so from the checkout's root (``python -m``
    puts the working directory first) or with it on ``PYTHONPATH``. Its files are read as models;
    nothing of ``agents/`` is imported. None outside a checkout."""
    for entry in sys.path:
        zoo = Path(entry or ".") / "agents" / "zoo"
        if zoo.is_dir():
            return zoo
    return None


def trained_player(spec: str, rules: Rules, seats: int, starting_chips: int) -> tuple[Strategy, bool]:
    """A trained model as a table player; True if it was trained to bank. Its run's config is checked
    against the table before the model (and torch) is loaded, and the model is read by the package's
    safe loader (``models.safe_load``: never unpickled, tensors only)."""
    needs = (f"trained opponent {spec!r} needs the train extra (pyyaml, torch, stable-baselines3, "
             "sb3-contrib): pip install 'shoot-pontoon-env[train]'")
    try:
        import gymnasium as gym

        from .models.safe_load import ModelFileError, model_config
        from .models.trained import TrainedPlayer, TrainedPolicy, model_file
    except ImportError:
        raise UsageError(needs) from None
    from . import envs  # noqa: F401  (registers the ids)

    zoo = checkout_zoo()
    if spec.startswith("zoo:") and zoo is None:
        raise UsageError(f"trained opponent {spec!r} needs a checkout of the repository (zoo:NAME is a model "
                         "of its agents/zoo): run python -m shoot_pontoon_env.play from its root")
    try:
        path = model_file(spec, zoo)
        if not path.is_file():
            raise ValueError(f"no such file {str(path)!r}")
        config = model_config(path)  # read safely: never unpickled, and env_id one of this package's ids
        env_id = config.env_id or "ShootPontoon-v0"
        trained_env = gym.make(env_id, **config.env_kwargs)
        here = {**config.env_kwargs, "num_players": seats, "starting_chips": starting_chips}
        here_env = gym.make(env_id, **here)
        seat = here_env.unwrapped  # the env of the opponent's seat at this table
    except (ModelFileError, ValueError, TypeError, OSError, gym.error.Error) as error:
        raise UsageError(f"trained opponent {spec!r}: {error}") from None
    if seat.rules != rules:
        trained = seat.rules  # a preset by its name, changed rules as the run's own spec
        option = (trained.name if PRESETS.get(trained.name) == trained
                  else f"'{json.dumps(config.env_kwargs.get('rules'))}'")
        raise UsageError(f"trained opponent {spec!r} was trained under the rules {seat.rules.name!r}, "
                         f"not {rules.name!r}: choose --rules {option}")
    trained_shape, shape = trained_env.observation_space.shape, here_env.observation_space.shape
    if config.observation == "flat" and trained_shape != shape:
        seats_trained = trained_env.unwrapped.num_players
        raise UsageError(f"trained opponent {spec!r} reads observations of shape {trained_shape} (a table of "
                         f"{seats_trained} seats); a table of {seats} seats gives {shape}: use --seats {seats_trained}")
    try:  # the tensors must fit this seat's env
        policy = TrainedPolicy(path, config, seat.spec.id if seat.spec is not None else None,
                               seat.observation_space, seat.action_space)
    except (ModelFileError, ValueError) as error:
        raise UsageError(f"trained opponent {spec!r}: {error}") from None
    except ImportError:  # torch or stable-baselines3, imported when the policy is read
        raise UsageError(needs) from None
    player = TrainedPlayer(policy, seat.rules, seat.num_players, seat.starting_chips, seat.action_table, spec)
    return player, "Banker" in env_id


def _is_model(part: str) -> bool:
    """A spec naming a trained model: ``zoo:NAME``, a ``.zip`` path, or a run folder with ``model.zip``."""
    return part.startswith("zoo:") or part.endswith(".zip") or (
        bool(part) and (Path(part) / "model.zip").is_file())


def split_spec(spec: str) -> list[str]:
    """``NAME`` or ``PUNTER/BANKER``. A model path holds ``/`` itself, so the spec is one player if it
    names one whole (a strategy, an existing file or folder), else it splits at the first ``/`` that
    leaves a player on each side; a lone ``/`` between two unknown names splits there, so that the
    bad one is named."""
    if "/" not in spec or spec in STRATEGIES or Path(spec).exists():
        return [spec]
    for at in (i for i, c in enumerate(spec) if c == "/"):
        left, right = spec[:at], spec[at + 1:]
        if all(part in STRATEGIES or _is_model(part) for part in (left, right)):
            return [left, right]
    if _is_model(spec):
        return [spec]  # a model path that names nothing: trained_player says so
    parts = spec.split("/")
    if len(parts) == 2 and all(parts):
        return parts
    raise UsageError(f"--opponents {spec!r}: expected NAME or PUNTER/BANKER (each a strategy, zoo:NAME, "
                     "a model .zip or a run folder)")


def make_player(spec: str, rules: Rules, seats: int, starting_chips: int) -> Strategy:
    """``NAME`` (a strategy, or a trained model that plays its own role and the other by rule), or
    ``PUNTER/BANKER`` (one player for each role). A trained model is ``zoo:NAME``, a model ``.zip``
    path or a run folder holding ``model.zip``."""
    players = []
    for part in split_spec(spec):
        if part in STRATEGIES:
            players.append((make_strategy(part), None))
        elif _is_model(part) or Path(part).is_dir():  # a folder without model.zip: trained_player says so
            players.append(trained_player(part, rules, seats, starting_chips))
        else:
            raise UsageError(f"--opponents {part!r}: expected a strategy {sorted(STRATEGIES)}, zoo:NAME, "
                             "a model .zip or a run folder (zoo:NAME from a checkout)")
    if len(players) == 2:
        return RoleSplit(players[0][0], players[1][0], spec)
    player, banks = players[0]
    if banks is None:
        return player
    return (RoleSplit(make_strategy("tips"), player, f"{spec} (punts as tips)") if banks
            else RoleSplit(player, make_strategy("stand17"), f"{spec} (banks as stand17)"))


# --------------------------------------------------------------------------- what the player sees
def describe_rank(rank: HandRank) -> str:
    if rank.hand_class == HandClass.BUST:
        return f"bust ({rank.total})"
    if rank.hand_class == HandClass.PONTOON:
        return "a Pontoon"
    if rank.hand_class == HandClass.FIVE_CARD_TRICK:
        return f"a Five Card Trick ({rank.total})"
    return str(rank.total)


def cards_text(cards: Sequence[int], hidden: int = 0) -> str:
    return " ".join([card_code(c) for c in cards] + ["??"] * hidden) or "-"


def hand_text(hand: HandView) -> str:
    shown = f"{cards_text(hand.cards, hand.hidden_cards)}"
    if hand.cards:
        shown += f" ({'shows ' if hand.hidden_cards else ''}{best_total(hand.cards)[0]})"
    shown += f", stake {hand.stake}" + (f", Shoot bet {hand.shoot_bet}" if hand.shoot_bet else "")
    if hand.settled:
        shown += f"  [settled {hand.result:+d}]"
    elif hand.done:
        shown += "  [stands]"
    return shown


def table_text(table: Table, view: SeatView, names: Sequence[str]) -> str:
    lines = [f"Shoot {table.shoot}" + (f" (reserve {table.reserve})" if table.reserve else "")
             + f", room for Shoot bets {table.shoot_capacity}" if table.rules.shoot else "No Shoot at this table"]
    for seat in range(table.num_players):
        who = f"seat {seat} {names[seat]:<10} chips {table.balances[seat]:>6}"
        if seat == table.banker:
            total = f" ({best_total(view.banker_cards)[0]})" if view.banker_cards else ""
            lines.append(f"  {who}  BANKER: {cards_text(view.banker_cards, view.banker_hidden)}{total}")
            continue
        hands = [(i, h) for i, h in enumerate(view.hands) if h.seat == seat]
        lines.append(f"  {who}" + ("" if hands else "  no hand"))
        for i, hand in hands:
            lines.append(f"      {hand_text(hand)}" + ("   <- your decision" if i == view.current else ""))
    return "\n".join(lines)


def amount_prompt(move: LegalMove, what: str) -> str:
    return f"{what} {move.low}" if move.low == move.high else f"{what} {move.low}..{move.high}"


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
        menu.append(f"[{key}] {amount_prompt(move, label) + ' chips' if move.kind == ActionKind.BUY else label}")
    prompt = "  ".join(menu) + "  [q] quit\nYour move: "
    by_key = {KEYS[m.kind][0]: m for m in view.legal}
    while True:
        answer = console.ask(prompt)
        key, _, rest = answer.partition(" ")
        move = by_key.get(key)
        if move is None:
            keys = ", ".join(by_key)
            console.say(f"  {answer!r} is not a legal move here: type one of {keys} (q quits)")
            continue
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

    def __init__(self, rules: Rules, seats: int, seat: int, players: Sequence[Strategy], seed: int,
                 starting_chips: int, console: Console) -> None:
        rng = np.random.default_rng(seed)
        self.table = Table(rules, seats, rng=np.random.default_rng(int(rng.integers(2**63))),
                           starting_chips=starting_chips)
        self.rng = rng
        self.seat = seat
        self.players = list(players)
        self.console = console
        self.names = [("you" if s == seat else players[s].name) for s in range(seats)]
        self._shown = 0

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
        unfinished = self.table.phase != Phase.DEAL_OVER
        say(self.chip_count("Final chips" + (" (stakes of the unfinished deal counted as their owners')"
                                             if unfinished else "")))
        return 0

    def play_deal(self) -> None:
        table, say = self.table, self.console.say
        table.start_deal()
        self._shown = 0
        role = "the banker" if table.banker == self.seat else "a punter"
        say(f"\n=== Deal {table.deal_number}: seat {table.banker} holds the bank; you (seat {self.seat}) are {role} ===")
        explained = False
        while table.to_act is not None:
            if not explained and table.phase == Phase.BANK_DECISION:
                self.explain()
                explained = True
            seat = table.to_act
            view = seat_view(table, seat)
            if seat == self.seat:
                self.echo_events()
                say(table_text(table, view, self.names))
                action = choose(self.console, view)
            else:
                action = self.players[seat].act(view, self.rng)
            table.apply(action)
        if not explained:
            self.explain()
        self.echo_events()
        say(self.chip_count("Chips"))

    def echo_events(self) -> None:
        events = self.table.events
        for event in events[self._shown:]:
            if event.kind not in QUIET_EVENTS:
                self.console.say(f"  . {event_line(event, self.seat)}")
        self._shown = len(events)

    def explain(self) -> None:
        """Each hand's result against the banker's, as the player's seat sees them (all shown by now)."""
        self.echo_events()
        table, say = self.table, self.console.say
        view = seat_view(table, self.seat)
        rules = table.rules
        banker = banker_rank(view.banker_cards, rules)
        say(f"Settlement: the banker (seat {table.banker}) has {cards_text(view.banker_cards, view.banker_hidden)}"
            f" = {describe_rank(banker)}")
        for hand in view.hands:
            rank = hand_rank(hand, rules)  # reads only cards and from_split, as a HandView has them
            owner = "you" if hand.seat == self.seat else f"seat {hand.seat}"
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
            bank = "" if seat != table.banker else " (banker, with the Shoot)" if table.rules.shoot else " (banker)"
            parts.append(f"  seat {seat} {self.names[seat]:<10} {table.wealth(seat):>6}{bank}  net {net:+d}")
        return f"{title} after {table.deal_number} deal(s):\n" + "\n".join(parts)


# --------------------------------------------------------------------------- command line
def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m shoot_pontoon_env.play", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="shoot",
                        help=f"rule preset ({', '.join(sorted(PRESETS))}) or a preset with changed options as "
                             'JSON, e.g. \'{"preset": "shoot", "max_shoot_bet": 2}\'')
    parser.add_argument("--seats", type=int, default=4, help="seats at the table, you included (2..10)")
    parser.add_argument("--seat", type=int, default=1, help="your seat (0 holds the first bank; 1 plays first)")
    parser.add_argument("--opponents", nargs="+", default=["tips"], metavar="SPEC",
                        help="one for every other seat or one per seat in seat order: a strategy "
                             f"({', '.join(sorted(STRATEGIES))}), zoo:NAME (from a checkout), a model .zip "
                             "or its run folder (with the train extra), or PUNTER/BANKER for one player per role")
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


def main(argv: Sequence[str] | None = None, console: Console | None = None) -> int:
    """The command line: one ``error: ...`` line and exit status 2 for a mistake (``--debug``: traceback)."""
    return run(lambda args: play(args, console or Console()), argv)


def play(argv: list[str], console: Console) -> int:
    args = parse(argv)
    rules = args.rules
    try:
        Table(rules, args.seats, rng=np.random.default_rng(0))
    except ValueError as problem:
        raise UsageError(f"--seats {args.seats}: {problem}") from None
    specs = args.opponents * (args.seats - 1) if len(args.opponents) == 1 else args.opponents
    others = [make_player(s, rules, args.seats, args.chips) for s in specs]
    players = others[:args.seat] + [make_strategy("stand17")] + others[args.seat:]  # your seat: unused
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**32)
    console.say(f"Pontoon ({rules.name}), {args.seats} seats, seed {seed}. You are seat {args.seat}; the others: "
                + ", ".join(f"seat {s} {p.name}" for s, p in enumerate(players) if s != args.seat) + ".")
    console.say("Keys: " + ", ".join(f"{k} {label}" for k, label in KEYS.values())
                + "; stakes and Shoot bets are typed as numbers of chips; q leaves.")
    session = Session(rules, args.seats, args.seat, players, seed, args.chips, console)
    return session.run(args.deals)


if __name__ == "__main__":
    raise SystemExit(main())

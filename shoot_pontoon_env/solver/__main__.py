"""``python -m shoot_pontoon_env.solver --rules PRESET [--decks N] [--json]``

Prints the punter's expected return per unit of initial stake (finite shoe and infinite deck),
the optimal strategy table and the time taken; ``--json`` prints one JSON object instead.
``--shoot-ratio R`` adds the Shoot bet analysis for an allowance of R original stakes.

``python -m shoot_pontoon_env.solver exploitability --punter NAME --banker NAME [--rules shoot] [--pack P]
[--max-buys N] [--json]``
prints the heads-up exploitability of a (punter, banker) pair (``best_response.py``); a trained model
(``zoo:NAME``, a ``.zip``, a run folder) is seated as ``play`` seats one, which is why this module is a
front door (docs/ARCHITECTURE.md) above the solver it runs.

``python -m shoot_pontoon_env.solver equilibrium [--rules shoot] [--iterations N] [--json]`` solves the
heads-up equilibrium of a reduced game (``equilibrium_cli.py``).

``python -m shoot_pontoon_env.solver bank-value --shoot N [--punter P] [--banker B] [--deals H] [--json]``
values the bank over a session, the Shoot as a Markov chain (``session/cli.py``).

``python -m shoot_pontoon_env.solver table-exploitability --players N --punter P --banker B [--deals D] [--json]``
the exploitability of a whole table's profile, the banker reading every box (``whole_table/cli.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np

from ..cli import Parser, UsageError, float_in, int_in, run, strict_json
from ..rules import MAX_DRAWS, PRESETS, SHOOT_BET_POINTS, get_rules
from ..players.strategies import StandOnBanker
from .pack_option import add_pack_argument, with_pack
from .shoot_bet_options import add_shoot_bet_arguments, shoot_points, with_shoot_bets
from .shoot import ShootAnalysis
from .solution import Solution
from .solve import solve
from .space import LEVELS
from .table import UP_NAMES, cell_actions, flag_name, hand_weights, reachable_flags, strategy_table


def _strategy_json(sol: Solution) -> dict[str, Any]:
    reach = reachable_flags(sol)
    out: dict[str, Any] = {}
    for up in sol.up_probs:
        ctx = sol.context(up, None)
        label = "hidden" if up is None else f"up {UP_NAMES[up]}"
        by_flag: dict[str, dict[str, str]] = {}
        for k in range(2, 5):
            for f in sorted(reach[k - 1]):
                cells = cell_actions(sol, sol.closed, ctx, k, f)
                row = by_flag.setdefault(flag_name(sol, f), {})
                for (soft, total), act in sorted(cells.items()):
                    row[f"{k} cards {'soft' if soft else 'hard'} {total}"] = act
        pairs = {}
        for pair in range(10):
            plan = sol.splits.get((up, pair))
            pairs[UP_NAMES[pair] * 2] = "play" if plan is None or not plan.split else (
                "split and resplit" if plan.resplit else "split")
        out[label] = {"play": by_flag, "pairs": pairs}
    return out


def _shoot_summary(sol: Solution) -> dict[str, Any]:
    shoot = sol.shoot
    assert isinstance(shoot, ShootAnalysis)
    ups = list(sol.up_probs)
    second = {
        ("" if up is None else f"up {UP_NAMES[up]}, ") + f"first {UP_NAMES[c1]}": {
            "value_per_chip": round(shoot.value_second[(up, c1)], 6), "bet": shoot.bet_second[(up, c1)]}
        for up in ups for c1 in range(10)
    }
    fourth: dict[str, dict[str, Any]] = {}
    lv = LEVELS[2]
    reach = reachable_flags(sol)[2]
    for up in ups:
        ctx = sol.context(up, None)
        no_bp = sol.static.no_pontoon[2][ctx]
        weights = hand_weights(sol, 2, ctx) * no_bp
        for f in sorted(reach):
            cells: dict[tuple[bool, int], list[float]] = {}
            for i in range(lv.n):
                if sol.static.auto_stand[2][ctx, i] or weights[i] <= 0:
                    continue
                key = (bool(lv.soft[i]), int(lv.total[i]))
                acc = cells.setdefault(key, [0.0, 0.0, 0.0])
                acc[0] += weights[i]
                acc[1] += weights[i] * shoot.value_fourth[ctx, i, f]
                acc[2] += weights[i] * bool(shoot.bet_fourth[ctx, i, f])
            name = ("" if up is None else f"up {UP_NAMES[up]}, ") + flag_name(sol, f)
            fourth[name] = {
                f"{'soft' if s else 'hard'} {t}": {"value_per_chip": round(a[1] / a[0], 6),
                                                    "bet_share": round(a[2] / a[0], 3)}
                for (s, t), a in sorted(cells.items())
            }
    return {
        "ratio": shoot.ratio, "points": list(shoot.points),
        "expected_return": shoot.expected_return, "stake_part": shoot.stake_part,
        "shoot_part": shoot.shoot_part,
        "before_deal": {"value_per_chip": shoot.value_deal, "bet": shoot.bet_deal},
        "before_second_card": second, "before_fourth_card": fourth,
    }


def _shoot_text(summary: dict[str, Any]) -> str:
    lines = [f"Shoot bets: allowance {summary['ratio']:g} original stakes, points {', '.join(summary['points'])}",
             ("  value per chip = P(win) - P(lose) of the hand, played best with the bet riding;"
              " 'BET' = the optimal policy bets the whole allowance there"),
             (f"  before the deal: {summary['before_deal']['value_per_chip']:+.4f}"
              f" {'BET' if summary['before_deal']['bet'] else 'no bet'}"),
             "  before the second card, by the first card:"]
    lines += [f"    {k:<22} {v['value_per_chip']:+.4f} {'BET' if v['bet'] else ''}"
              for k, v in summary["before_second_card"].items()]
    lines.append("  before the fourth card, three-card hands (mean over the hands of that total, weighted by "
                 "their chance; BET <share> when only that share of them is bet on), given no banker Pontoon:")
    for name, cells in summary["before_fourth_card"].items():
        lines.append(f"    {name}:")
        items = [f"{k:>7} {v['value_per_chip']:+.3f}"
                 + (f" BET{'' if v['bet_share'] == 1 else ' ' + str(v['bet_share'])}" if v["bet_share"] else "")
                 for k, v in cells.items()]
        for at in range(0, len(items), 6):
            lines.append("      " + "  ".join(f"{item:<20}" for item in items[at:at + 6]).rstrip())
    lines.append(f"  expected return with the optimal Shoot policy: {summary['expected_return']:+.6f} per unit "
                 f"stake (stake {summary['stake_part']:+.6f}, Shoot {summary['shoot_part']:+.6f})")
    return "\n".join(lines)


def build_parser() -> Parser:
    parser = Parser(prog="python -m shoot_pontoon_env.solver", description=__doc__,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="shoot", choices=sorted(PRESETS), help="the rule set (a preset)")
    parser.add_argument("--decks", type=int_in(1, 8), default=None,
                        help="decks in the shoe, 1..8 (default: the preset's)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--banker-stands-on", type=int_in(12, 21), default=None,
                        help="free banker (Shoot preset): StandOnBanker threshold, 12..21 (default 17); "
                             "not for the dealer rules of casino and playtech")
    parser.add_argument("--shoot-ratio", type=float_in(0.0, 1000.0, above_low=True), default=None,
                        help="analyse Shoot bets of this many original stakes, above 0 and <= 1000 "
                             "(Shoot rules only)")
    parser.add_argument("--shoot-points", type=shoot_points, default=None,
                        help=f"comma-separated betting points for the Shoot analysis, from {SHOOT_BET_POINTS} "
                             "(default: all three); only with --shoot-ratio")
    return parser


EXPLOITABILITY = "exploitability"


def exploitability_presets() -> list[str]:
    """The presets the heads-up model accepts (``game_punter.check_rules``)."""
    from .headsup.game_punter import check_rules

    names = []
    for name in sorted(PRESETS):
        try:
            check_rules(get_rules(name))
        except NotImplementedError:
            continue
        names.append(name)
    return names


def build_exploitability_parser() -> Parser:
    parser = Parser(prog=f"python -m shoot_pontoon_env.solver {EXPLOITABILITY}",
                    description="Heads-up exploitability of a (punter, banker) pair: the mean of the "
                                "banker's and the punter's best-response gains, per unit of initial stake.")
    parser.add_argument("--punter", required=True,
                        help="the punter: a strategy name (tips, thresholdN, ...), optimal, basic, or a trained "
                             "punter (zoo:NAME from a checkout, a model .zip or a run folder)")
    parser.add_argument("--banker", required=True,
                        help="the banker: a strategy name (stand17, dealer, shoot_aware, ...) or a trained banker "
                             "(zoo:NAME, a model .zip or a run folder)")
    parser.add_argument("--rules", default="shoot", choices=exploitability_presets(),
                        help="the rule set (a preset the heads-up model accepts)")
    add_pack_argument(parser)
    parser.add_argument("--max-buys", type=int_in(0, MAX_DRAWS), default=None,
                        help=f"buys per hand, 0..{MAX_DRAWS} (default: the rules')")
    add_shoot_bet_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def exploitability_player(option: str, spec: str, rules, shoot_bets: bool = False, num_players: int = 2) -> Any:
    """The player ``--punter`` or ``--banker`` names, by the package's one resolver
    (``models.resolve.make_policy``): a strategy, ``optimal`` (the heads-up game's: no Shoot bets, or with
    ``shoot_bets`` the solver's Shoot bets for the posted Shoot), or
    a trained model seated as ``play`` seats one at a table of ``num_players`` (read by the safe loader),
    for the role the option names; a model trained for the other role, and ``random``, are refused in
    one line."""
    from ..models.resolve import RoleMismatch, make_policy
    from .headsup.game_punter import STARTING_CHIPS

    if spec == "random":
        raise UsageError(f"argument {option}: 'random' plays at random; the best responses need a "
                         "deterministic player")
    label, role = f"argument {option}", "punter" if option.endswith("punter") else "banker"
    try:
        return make_policy(spec, rules=rules, num_players=num_players, starting_chips=STARTING_CHIPS, role=role,
                           shoot_bet_levels=None if shoot_bets else (), label=label)
    except RoleMismatch as error:
        other = f"--{error.own}" if error.own else "neither option"
        raise UsageError(f"argument {option}: {spec!r} is a trained {error.own or 'model of neither role'}: "
                         f"give it as {other}") from None
    except ValueError as error:
        text = str(error)
        raise UsageError(text if text.startswith(label) else f"{label}: {text}") from None


def exploitability_main(argv: list[str]) -> int:
    from .headsup.best_response import Progress, exploitability

    args = build_exploitability_parser().parse_args(argv)
    rules = with_pack(get_rules(args.rules), args.pack)
    if args.max_buys is not None:
        rules = rules.replace(max_buys=args.max_buys, name=f"{rules.name}-max_buys{args.max_buys}")
    rules = with_shoot_bets(rules, args)
    players = [exploitability_player(option, spec, rules, args.shoot_bets)
               for option, spec in (("--punter", args.punter), ("--banker", args.banker))]
    solutions: dict = {}  # one solve per game, shared with the punter's best response
    try:
        result = exploitability(players[0], players[1], rules, solutions, Progress("exploitability"),
                                args.shoot_bets, args.shoot_bet_totals)
    except NotImplementedError as error:
        raise UsageError(str(error)) from None
    out = result.to_dict()
    out["punter"], out["banker"] = args.punter, args.banker
    if args.json:
        print(strict_json(out))
        return 0

    def signed(x: float) -> str:  # no "-0.000000" for a gain of -1e-16
        return f"{round(x, 6) + 0.0:+.6f}"

    print(f"Rules {rules.name!r}, heads-up: punter {args.punter}, banker {args.banker} "
          "(per unit of initial stake)")
    if args.shoot_bets:
        print(f"  Shoot bets at {', '.join(rules.shoot_bet_points)}; a Shoot of {rules.initial_shoot}, "
              f"one bet at most {rules.max_shoot_bet or 'the Shoot'}")
    print(f"  pair value (punter):                {result.pair_value:+.6f}")
    print(f"  against the banker's best response: {result.banker_best_response:+.6f} "
          f"(banker gains {signed(result.banker_gain)})")
    print(f"  punter's best response:             {result.punter_best_response:+.6f} "
          f"(punter gains {signed(result.punter_gain)})")
    print(f"  exploitability:                     {signed(result.exploitability)}")
    print("Assumptions: " + "; ".join(result.notes))
    print(f"Time taken: {result.seconds:.2f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == EXPLOITABILITY:
        return exploitability_main(argv[1:])
    if argv and argv[0] == "bank-value":
        from .session.cli import bank_value_main

        return bank_value_main(argv[1:], lambda option, spec, rules: exploitability_player(option, spec, rules, True))
    if argv and argv[0] == "table-exploitability":
        from .whole_table.cli import table_exploitability_main

        return table_exploitability_main(argv[1:], lambda option, spec, rules, players: exploitability_player(
            option, spec, rules, num_players=players))
    if argv and argv[0] == "equilibrium":
        from .headsup.equilibrium_cli import equilibrium_main

        return equilibrium_main(argv[1:], exploitability_presets())
    parser = build_parser()
    args = parser.parse_args(argv)
    rules = get_rules(args.rules)
    if args.decks is not None:
        rules = rules.replace(num_decks=args.decks)
    ratio = args.shoot_ratio
    if ratio is not None:
        if not rules.shoot:
            raise UsageError(f"argument --shoot-ratio: rules {rules.name!r} have no Shoot; use --rules shoot")
        rules = rules.replace(shoot_bet_points=args.shoot_points or SHOOT_BET_POINTS)
    elif args.shoot_points is not None:  # an option that changes nothing is refused, not ignored
        raise UsageError("argument --shoot-points: applies only to the Shoot analysis: add --shoot-ratio R "
                         "(with --rules shoot)")
    if args.banker_stands_on is not None and rules.banker_play != "free":
        raise UsageError(f"argument --banker-stands-on: rules {rules.name!r} have a dealer who draws by fixed "
                         "rules; it applies only to a free banker (--rules shoot)")
    banker = StandOnBanker(17 if args.banker_stands_on is None else args.banker_stands_on)
    start = time.perf_counter()
    sol = solve(rules, banker=banker, shoot_ratio=ratio)
    inf = solve(rules, banker=banker, infinite=True)
    total_seconds = time.perf_counter() - start
    if args.json:
        out: dict[str, Any] = {
            "rules": rules.name, "num_decks": rules.num_decks, "banker": sol.banker,
            "expected_return": sol.expected_return, "infinite_deck_return": inf.expected_return,
            "seconds": sol.seconds, "infinite_seconds": inf.seconds, "total_seconds": total_seconds,
            "assumptions": sol.notes, "strategy": _strategy_json(sol),
        }
        if ratio is not None:
            out["shoot"] = _shoot_summary(sol)
        print(strict_json(json.loads(json.dumps(out, default=_plain))))
        return 0
    print(f"Rules {rules.name!r}: {rules.num_decks} deck(s), banker {sol.banker}")
    print(f"Expected return per unit of initial stake: {sol.expected_return:+.6f} "
          f"(infinite deck {inf.expected_return:+.6f})")
    print(f"Solved in {sol.seconds:.2f} s (infinite deck {inf.seconds:.2f} s)")
    print("Assumptions: " + "; ".join(sol.notes))
    print("Policy (S stick, T twist, B<n> buy n stakes, D double, * = depends on the cards):")
    print(strategy_table(sol))
    if ratio is not None:
        print(_shoot_text(_shoot_summary(sol)))
    print(f"Time taken: {total_seconds:.2f} s")
    return 0


def _plain(value: Any) -> Any:
    """NumPy scalars as Python numbers, anything else JSON does not know as its text."""
    return value.item() if isinstance(value, np.generic) else str(value)


if __name__ == "__main__":
    raise SystemExit(run(main))

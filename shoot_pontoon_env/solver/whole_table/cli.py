"""``python -m shoot_pontoon_env.solver table-exploitability --players N --punter P --banker B [--rules shoot]
[--deals D] [--seed S] [--json]``: the exploitability of a whole table's profile (``exploitability.py``),
the banker reading every box."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...cli import Parser, int_in, strict_json
from ...engine import MAX_PLAYERS
from ...rules import Rules, get_rules
from ..headsup.best_response import Progress
from .exploitability import table_exploitability

TABLE_EXPLOITABILITY = "table-exploitability"


def build_table_exploitability_parser() -> Parser:
    parser = Parser(prog=f"python -m shoot_pontoon_env.solver {TABLE_EXPLOITABILITY}",
                    description="The exploitability of a table's profile (NashConv over the seats: what each "
                                "seat's best response gains, per unit of a box's initial stake): the banker's "
                                "best response reads every box, exact at every table it meets, its value "
                                "sampled over --deals tables and played at the engine beside it; each punter's "
                                "exactly where the banker draws on its own cards.")
    parser.add_argument("--players", type=int_in(2, MAX_PLAYERS), default=4,
                        help=f"seats at the table, the banker's included, 2..{MAX_PLAYERS} (default 4); each table "
                             "costs about 6 ms at 4 seats, 0.15 s at 6 and 3 s at 10 (the joint law of every box)")
    parser.add_argument("--punter", required=True,
                        help="the punter at every punter seat: a strategy name (tips, thresholdN, ...), optimal, "
                             "or a trained punter (zoo:NAME, a model .zip or a run folder)")
    parser.add_argument("--banker", required=True,
                        help="the banker: a strategy name (stand17, dealer, shoot_aware, ...) or a trained banker")
    parser.add_argument("--candidate-punter", default="optimal",
                        help="where the punters' gains are not exact (the banker reads the table, or the punters "
                             "read the other boxes): a punter seated at each punter seat in turn, its gain at the "
                             "engine a lower bound of that seat's (default optimal; none: skip)")
    parser.add_argument("--rules", default="shoot", choices=["shoot"], help="the rule set (the preset)")
    parser.add_argument("--deals", type=int_in(100, 10_000_000), default=10_000,
                        help="tables sampled for the best response's value, and again at the engine (default 10000)")
    parser.add_argument("--seed", type=int_in(0, 2**63 - 2), default=0, help="the tables' seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def table_exploitability_main(argv: list[str], player: Callable[[str, str, Rules, int], Any]) -> int:
    """Compute and print (exit status 0; bad input is a ``UsageError``). ``player(option, spec, rules,
    players)`` resolves ``--punter`` and ``--banker`` (the front door's resolver)."""
    args = build_table_exploitability_parser().parse_args(argv)
    rules = get_rules(args.rules)
    punter, banker = (player(option, spec, rules, args.players) for option, spec in (("--punter", args.punter),
                                                                                      ("--banker", args.banker)))
    candidate = None if args.candidate_punter == "none" else player("--candidate-punter", args.candidate_punter,
                                                                      rules, args.players)
    progress = Progress(TABLE_EXPLOITABILITY)
    result = table_exploitability(rules, punter, banker, args.players, args.deals, args.seed, progress, candidate)
    progress.say("done", end=True)
    out = result.to_dict() | {"punter": args.punter, "banker": args.banker}
    if result.candidate_gains is not None:
        out["candidate_punter"] = args.candidate_punter
    if args.json:
        print(strict_json(out))
        return 0
    z = result.engine_z
    print(f"Rules {result.rules!r}, {args.players} seats: banker {args.banker}, punters {args.punter} (per unit of a box's "
          "initial stake, summed over the boxes)")
    if result.profile_value is not None and result.banker_best_response is not None and result.banker_gain is not None:
        print(f"  the profile's value to the punters:   {result.profile_value.value:+.6f}"
              + (" (exact)" if result.profile_value.standard_error == 0 else
                 f" +/- {result.profile_value.standard_error:.6f}"))
        vz = result.engine_value_z
        print(f"  against the banker's best response:   {result.banker_best_response.value:+.6f} +/- "
              f"{result.banker_best_response.standard_error:.6f}; at the engine {result.engine_value.value:+.6f} +/- "
              f"{result.engine_value.standard_error:.6f}" + ("" if vz is None else f" (z = {vz:+.2f})"))
        print(f"  the banker's gain:                    {result.banker_gain.value:+.6f} +/- "
              f"{result.banker_gain.standard_error:.6f}")
        certified = result.banker_gain_certified
        if certified is not None:
            print(f"  ... certified ({certified.confidence:.1%}):      [{certified.low:+.6f}, {certified.high:+.6f}] "
                  f"(empirical Bernstein over the {result.deals:,} tables, each within a range of {certified.width:.2f})")
    else:
        print("  the punters read the other boxes: their boxes are not modelled, the engine's figures only")
    print(f"  the banker's gain at the engine:      {result.engine_gain.value:+.6f} +/- "
          f"{result.engine_gain.standard_error:.6f} (paired, {result.deals:,} deals)" + ("" if z is None else f", z = {z:+.2f}"))
    if result.candidate_gains is not None:
        gains = ", ".join(f"{g.value:+.4f} +/- {g.standard_error:.4f}" for g in result.candidate_gains)
        print(f"  {args.candidate_punter} at each punter seat gains {gains} (lower bounds of the seats' gains)")
    elif result.punter_gains is None:
        print("  the punters' gains:                   not computed")
    else:
        print(f"  each punter's gain (exact for a punter playing its own box): {result.punter_gains[0]:+.6f}")
    bound = " (a lower bound)" if result.nash_conv_is_lower_bound else ""
    print(f"  NashConv {result.nash_conv:.6f}{bound}; exploitability (NashConv / {args.players} seats) "
          f"{result.exploitability:.6f}")
    if result.nash_conv_certified is not None:
        nc = result.nash_conv_certified
        print(f"  NashConv certified ({nc.confidence:.1%}): [{nc.low:.6f}, {nc.high:.6f}]")
    print(f"Time taken: {result.seconds:.1f} s")
    return 0


__all__ = ["TABLE_EXPLOITABILITY", "build_table_exploitability_parser", "table_exploitability_main"]

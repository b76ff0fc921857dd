"""``python -m shoot_pontoon_env.solver equilibrium [--rules shoot] [--iterations N] [--recall R]
[--max-buys N] [--pack P] [--lp] [--json]``: the heads-up equilibrium of a reduced game, its value and its
exploitability by the best-response code (``equilibrium.py``)."""

from __future__ import annotations

import importlib
import time

from ...cli import Parser, UsageError, int_in, strict_json
from ...rules import MAX_DRAWS, get_rules
from ..pack_option import add_pack_argument, with_pack
from .equilibrium import DEFAULT_ITERATIONS, RECALLS, measure, solve_equilibrium
from .equilibrium_game import equilibrium_rules

EQUILIBRIUM = "equilibrium"


def build_equilibrium_parser(presets: list[str]) -> Parser:
    """The ``equilibrium`` subcommand's parser (``presets``: the rule sets it accepts)."""
    parser = Parser(prog=f"python -m shoot_pontoon_env.solver {EQUILIBRIUM}",
                    description="The heads-up equilibrium (CFR+) of a reduced game of the rules: one "
                                "stake, no Shoot bets, no splits (equilibrium_rules). Prints the game "
                                "value and the exploitability measured by the best-response code.")
    parser.add_argument("--rules", default="shoot", choices=presets,
                        help="the rule set (a preset the heads-up model accepts), reduced by "
                             "equilibrium_rules")
    parser.add_argument("--iterations", type=int_in(1, 100_000), default=None,
                        help=f"CFR+ iterations, 1..100000 (default {DEFAULT_ITERATIONS['perfect']})")
    parser.add_argument("--recall", default="perfect", choices=RECALLS,
                        help="the punter's information: 'perfect' (it knows which cards it twisted, a "
                             "game of perfect recall) or 'observation' (its flat observation, which does "
                             "not say)")
    parser.add_argument("--max-buys", type=int_in(0, MAX_DRAWS), default=None,
                        help=f"buys per hand, 0..{MAX_DRAWS} (default: the rules'); 0 gives the small game")
    add_pack_argument(parser)
    parser.add_argument("--lp", action="store_true",
                        help="also solve the game value by the LP of cutting planes (needs scipy; "
                             "perfect recall)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def equilibrium_main(argv: list[str], presets: list[str]) -> int:
    """Solve, measure and print (exit status 0; bad input is a ``UsageError``)."""
    args = build_equilibrium_parser(presets).parse_args(argv)
    rules = equilibrium_rules(with_pack(get_rules(args.rules), args.pack))
    if args.max_buys is not None:
        rules = rules.replace(max_buys=args.max_buys, name=f"{rules.name}-max_buys{args.max_buys}")
    if args.lp and args.recall != "perfect":
        raise UsageError("argument --lp: the LP solves the game of perfect recall; drop --recall observation")
    if args.lp:
        try:
            importlib.import_module("scipy.optimize")
        except ImportError:
            raise UsageError("argument --lp: needs scipy, the solver extra: "
                             "pip install -e '.[solver]' in a checkout") from None
    begin = time.perf_counter()
    eq = solve_equilibrium(rules, args.iterations, recall=args.recall)
    result = measure(eq)
    out = result.to_dict()
    if args.lp:
        from .equilibrium_lp import solve_lp

        lp = solve_lp(eq.game)  # the game of perfect recall (--lp refuses --recall observation)
        out["lp"] = {"value": lp.value, "upper": lp.upper, "lower": lp.lower, "rounds": lp.rounds,
                     "seconds": lp.seconds, "difference": result.pair_value - lp.value}
    out["seconds"] = time.perf_counter() - begin
    if args.json:
        print(strict_json(out))
        return 0
    print(f"Rules {rules.name!r}, heads-up equilibrium (CFR+, {result.iterations} iterations, punter recall "
          f"{args.recall}); per unit of initial stake")
    print(f"  game value (the pair's, punter):    {result.pair_value:+.6f}")
    print(f"  against the banker's best response: {result.banker_best_response:+.6f} "
          f"(banker gains {result.banker_gain:+.6f}; the SeatView banker, who sees the twists' order)")
    print(f"  punter's best response:             {result.punter_best_response:+.6f} "
          f"(punter gains {result.punter_gain:+.6f})")
    print(f"  exploitability:                     {result.exploitability:.6f} "
          "(as best_response.exploitability of every other pair)")
    print(f"  in the reduced game (the banker on the flat observation, twists as a multiset): banker's best "
          f"response {result.banker_best_response_reduced_game:+.6f}, exploitability "
          f"{result.exploitability_reduced_game:.6f}")
    if args.lp:
        print(f"  LP (cutting planes): {out['lp']['value']:+.6f} in {out['lp']['rounds']} rounds, "
              f"{out['lp']['seconds']:.1f} s (difference {out['lp']['difference']:+.6f})")
    print(f"Time taken: {out['seconds']:.1f} s (CFR+ {result.solve_seconds:.1f} s, best responses "
          f"{result.measure_seconds:.1f} s)")
    return 0

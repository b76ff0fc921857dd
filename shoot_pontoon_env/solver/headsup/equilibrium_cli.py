"""``python -m shoot_pontoon_env.solver equilibrium [--rules shoot] [--iterations N] [--recall R]
[--max-buys N] [--pack P] [--lp] [--shoot-bets [--allowance A] [--initial-shoot S]] [--deals N] [--json]``: the heads-up equilibrium of a reduced game, its value and its
exploitability by the best-response code (``equilibrium.py``)."""

from __future__ import annotations

import importlib
import time

from ...cli import Parser, UsageError, int_in, strict_json
from ...rules import MAX_DRAWS, get_rules
from ..pack_option import add_pack_argument, with_pack
from .equilibrium import DEFAULT_ITERATIONS, RECALLS, measure, solve_equilibrium
from .equilibrium_game import equilibrium_rules, shoot_equilibrium_rules
from .shoot_equilibrium import banker_draws_by_bet, engine_pair, punter_bet_chances

EQUILIBRIUM = "equilibrium"


def build_equilibrium_parser(presets: list[str]) -> Parser:
    """The ``equilibrium`` subcommand's parser (``presets``: the rule sets it accepts)."""
    parser = Parser(prog=f"python -m shoot_pontoon_env.solver {EQUILIBRIUM}",
                    description="The heads-up equilibrium (CFR+) of a reduced game of the rules: one "
                                "stake, no splits, and no Shoot bets (equilibrium_rules) or, with "
                                "--shoot-bets, nothing or an allowance at each betting point "
                                "(shoot_equilibrium_rules). Prints the game value and the exploitability "
                                "measured by the best-response code.")
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
    group = parser.add_argument_group("Shoot bets")
    group.add_argument("--shoot-bets", action="store_true",
                       help="the reduced game with Shoot bets (shoot_equilibrium_rules): at each betting point the "
                            "punter bets nothing or the allowance")
    group.add_argument("--allowance", type=int_in(1, 1000), default=None,
                       help="with --shoot-bets: the allowance in chips (default one stake)")
    group.add_argument("--initial-shoot", type=int_in(1, 3000), default=None,
                       help="with --shoot-bets: the Shoot in chips (default three allowances)")
    parser.add_argument("--deals", type=int_in(0, 10_000_000), default=0,
                        help="also play the pair at the engine for this many deals, each at a new table "
                             "(default 0: none)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def equilibrium_main(argv: list[str], presets: list[str]) -> int:
    """Solve, measure and print (exit status 0; bad input is a ``UsageError``)."""
    args = build_equilibrium_parser(presets).parse_args(argv)
    rules = equilibrium_rules(with_pack(get_rules(args.rules), args.pack))
    if args.max_buys is not None:
        rules = rules.replace(max_buys=args.max_buys, name=f"{rules.name}-max_buys{args.max_buys}")
    if args.shoot_bets:
        rules = shoot_equilibrium_rules(rules, args.allowance, args.initial_shoot)
    elif args.allowance is not None or args.initial_shoot is not None:
        option = "--allowance" if args.allowance is not None else "--initial-shoot"
        raise UsageError(f"argument {option}: applies only with --shoot-bets")
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
    if args.shoot_bets:
        out["shoot_bets"] = {"allowance": rules.max_shoot_bet, "initial_shoot": rules.initial_shoot,
                             "points": list(rules.shoot_bet_points), "punter_bets": punter_bet_chances(eq),
                             "banker_draws_facing_two_stuck_cards_by_bet": banker_draws_by_bet(eq)}
    if args.deals:
        mean, se = engine_pair(eq, args.deals, seed=0)
        out["monte_carlo"] = {"deals": args.deals, "mean": mean, "standard_error": se,
                              "z": (mean - result.pair_value) / se if se > 0 else 0.0}
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
    if args.shoot_bets:
        bets = out["shoot_bets"]
        print(f"  Shoot bets of nothing or {bets['allowance']} chips at each point, a Shoot of {bets['initial_shoot']}; "
              f"the punter bets: {bets['punter_bets']}")
        print("  the banker's chance of drawing on hard 12..17 facing two stuck cards, by the bet riding (and "
              "the chance of a deal that meets that box):")
        for bet, row in bets["banker_draws_facing_two_stuck_cards_by_bet"].items():
            print(f"    bet {bet:>4} ({row['chance']:.5f}): " + "  ".join(f"{t}: {p:.2f}" for t, p in row["draws"].items()))
    if args.deals:
        mc = out["monte_carlo"]
        print(f"  engine, {mc['deals']:,} deals: {mc['mean']:+.6f} +/- {mc['standard_error']:.6f} (z = {mc['z']:+.2f})")
    print(f"Time taken: {out['seconds']:.1f} s (CFR+ {result.solve_seconds:.1f} s, best responses "
          f"{result.measure_seconds:.1f} s)")
    return 0

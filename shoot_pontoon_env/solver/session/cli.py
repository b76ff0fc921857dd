"""``python -m shoot_pontoon_env.solver bank-value --shoot N [--punter P] [--banker B] [--deals H]
[--players N] [--shoot-points ...] [--max-shoot-bet N] [--shoot-cap N] [--sale-price N] [--initial-shoot N]
[--sell-at-value] [--monte-carlo SESSIONS] [--seed S] [--json]``: the value of the bank over a session (``chain.py``),
heads-up exactly; at more seats by the session Monte Carlo only."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ...cli import Parser, UsageError, int_in, strict_json
from ...engine import MAX_PLAYERS
from ...rules import CHIP_LIMIT, Rules, get_rules
from .sessions import KEPT, PASSED, SOLD, play_sessions
from ..headsup.best_response import Progress
from ..headsup.deal_law import DealLaws
from .chain import BankChain, ValueSeller
from ..shoot_bet_options import named_variant, shoot_points

BANK_VALUE = "bank-value"
MAX_SESSION_DEALS = 10_000


def build_bank_value_parser() -> Parser:
    parser = Parser(prog=f"python -m shoot_pontoon_env.solver {BANK_VALUE}",
                    description="The value of the bank: the banker's expected net chips (its Shoot counted as its "
                                "own) from a Shoot of N chips until the bank passes, is sold, or the session's "
                                "deals are played; the chances of passing and selling deal by deal; and the "
                                "value of a new bank (a fair price for it). Exact heads-up (the Shoot as a Markov "
                                "chain over exact deal laws); at more seats by a Monte Carlo of sessions only.")
    parser.add_argument("--shoot", type=int_in(1, CHIP_LIMIT), required=True, help="the Shoot in chips, 1 or more")
    parser.add_argument("--punter", default="tips",
                        help="the punter (every punter seat): a strategy name (default tips) or a trained punter")
    parser.add_argument("--banker", default="shoot_aware",
                        help="the banker, who also decides whether to sell: a strategy name (default "
                             "shoot_aware, who sells once the Shoot is three times the posted one) or a trained banker")
    parser.add_argument("--rules", default="shoot", choices=["shoot"], help="the rule set (the preset with a Shoot)")
    parser.add_argument("--deals", type=int_in(1, MAX_SESSION_DEALS), default=20,
                        help=f"the session's deals, 1..{MAX_SESSION_DEALS} (default 20)")
    parser.add_argument("--players", type=int_in(2, MAX_PLAYERS), default=2,
                        help=f"seats at the table, 2..{MAX_PLAYERS} (default 2); the exact value is heads-up, more "
                             "seats need --monte-carlo")
    group = parser.add_argument_group("the table's rules (each changes the rules, which are then named for it)")
    group.add_argument("--shoot-points", type=shoot_points, default=None,
                       help="comma-separated Shoot betting points (default: the rules', before the deal)")
    group.add_argument("--max-shoot-bet", type=int_in(1, CHIP_LIMIT), default=None,
                       help="the most one Shoot bet may be (default: none but the Shoot)")
    group.add_argument("--shoot-cap", type=int_in(1, CHIP_LIMIT), default=None,
                       help="the bank limit: chips that would lift the Shoot past it go to the banker (default none)")
    group.add_argument("--sale-price", type=int_in(0, CHIP_LIMIT), default=None,
                       help="what the next player pays for the bank when it is sold (default: the rules', 0)")
    group.add_argument("--initial-shoot", type=int_in(1, CHIP_LIMIT), default=None,
                       help="the Shoot a new banker posts (default: the rules', 50): the fair price is a new bank's value")
    group.add_argument("--max-split-hands", type=int_in(1, 2), default=None,
                       help="hands a box may split into, 1 or 2 (default: the rules', capped at 2 by the model)")
    parser.add_argument("--sell-at-value", action="store_true",
                        help="the banker plays as --banker but sells exactly when the sale price beats the bank's "
                             "value to it, valued as a session of --deals more deals (ValueSeller)")
    parser.add_argument("--monte-carlo", type=int_in(0, 10_000_000), default=0, metavar="SESSIONS",
                        help="also play this many sessions at the engine (default 0: none)")
    parser.add_argument("--seed", type=int_in(0, 2**63 - 1), default=0, help="the Monte Carlo's seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def session_rules(args: Any) -> Rules:
    """The preset with the options given, named for what they change; a bad combination is one line."""
    rules = get_rules(args.rules)
    changes = {name: value for name, value in (
        ("shoot_bet_points", args.shoot_points), ("max_shoot_bet", args.max_shoot_bet),
        ("shoot_cap", args.shoot_cap), ("bank_sale_price", args.sale_price),
        ("initial_shoot", args.initial_shoot), ("max_split_hands", args.max_split_hands)) if value is not None}
    if args.shoot_cap is not None and args.shoot > args.shoot_cap:
        raise UsageError(f"argument --shoot: {args.shoot} chips is past the bank limit --shoot-cap {args.shoot_cap}")
    try:
        return named_variant(rules, changes)
    except ValueError as error:
        raise UsageError(f"the table's rules: {error}") from None


def bank_value_main(argv: list[str], player: Callable[[str, str, Rules], Any]) -> int:
    """Compute and print (exit status 0; bad input is a ``UsageError``). ``player(option, spec, rules)``
    resolves ``--punter`` and ``--banker`` (the front door's resolver)."""
    args = build_bank_value_parser().parse_args(argv)
    rules = session_rules(args)
    if args.players != 2 and not args.monte_carlo:
        raise UsageError(f"argument --players: the exact value is heads-up only (at {args.players} seats a deal's "
                         "law is the joint law of every box against one banker hand, not computed here); "
                         "add --monte-carlo SESSIONS for the engine's estimate, or use --players 2")
    punter, banker = (player(option, spec, rules) for option, spec in (("--punter", args.punter),
                                                                        ("--banker", args.banker)))
    progress = Progress(BANK_VALUE)
    stages = (2 if args.players == 2 else 0) + bool(args.monte_carlo)
    laws = None
    if args.players == 2:
        if args.sell_at_value:
            try:
                laws = DealLaws(rules, punter, banker, progress)
            except NotImplementedError as error:
                raise UsageError(str(error)) from None
            banker = ValueSeller(banker, punter, args.deals, laws)
    elif args.sell_at_value:
        raise UsageError("argument --sell-at-value: the bank's value is heads-up only; use --players 2")
    begin = time.perf_counter()
    out: dict[str, Any] = {"rules": rules.name, "shoot": args.shoot, "deals": args.deals, "players": args.players,
                           "punter": args.punter, "banker": args.banker, "initial_shoot": rules.initial_shoot,
                           "sale_price": rules.bank_sale_price, "exact": args.players == 2,
                           "sell_at_value": args.sell_at_value}
    if args.players == 2:
        try:
            chain = BankChain(rules, punter, banker, laws or DealLaws(rules, punter, banker, progress))
            progress.stage(1, stages, f"the bank held from {args.shoot} chips")
            held = chain.value(args.shoot, args.deals)
            progress.stage(2, stages, f"a new bank of {rules.initial_shoot} chips")
            new = chain.value(rules.initial_shoot, args.deals)
        except (NotImplementedError, ValueError) as error:
            raise UsageError(str(error)) from None
        out.update(held.to_dict())
        out["fair_price"] = new.value
        out["deal_classes"] = chain.laws.classes
    if args.monte_carlo:
        progress.stage(stages, stages, f"{args.monte_carlo:,} sessions at the engine")
        sample = play_sessions(rules, punter, banker, args.shoot, args.deals, args.monte_carlo, args.seed,
                               args.players)
        mean, se = sample.mean()
        mc = {"sessions": args.monte_carlo, "seed": args.seed, "mean": mean, "standard_error": se,
              "pass_chance": float((sample.ended == PASSED).mean()), "sale_chance": float((sample.ended == SOLD).mean()),
              "kept_chance": float((sample.ended == KEPT).mean()), "mean_deals": float(sample.deals.mean())}
        if args.players == 2:
            mc["z"] = (mean - out["value"]) / se if se > 0 else (0.0 if mean == out["value"] else None)
        else:
            out["value"], out["standard_error"] = mean, se
        out["monte_carlo"] = mc
    out["seconds"] = time.perf_counter() - begin
    progress.say("done", end=True)
    if args.json:
        print(strict_json(out))
        return 0
    print(f"Rules {rules.name!r}, {args.players} seats: banker {args.banker}, punters {args.punter}; a bank held from "
          f"a Shoot of {args.shoot} chips for at most {args.deals} deals (chips, the Shoot counted as the banker's)")
    if out["exact"]:
        print(f"  value of the bank (exact):      {out['value']:+.6f}")
        print(f"  a new bank's value ({rules.initial_shoot} chips): {out['fair_price']:+.6f} (a fair price for it)")
        print(f"  chance the bank passes:         {out['pass_chance']:.6f}; sold: {out['sale_chance']:.6f}; still "
              f"held: {out['kept_chance']:.6f}")
        print(f"  deals the banker expects:       {out['expected_deals']:.4f} ({out['states']} Shoots reachable, "
              f"{out['deal_classes']} classes of deal)")
    if args.monte_carlo:
        mc = out["monte_carlo"]
        z = "" if "z" not in mc else " (z undefined: no spread)" if mc["z"] is None else f" (z = {mc['z']:+.2f})"
        print(f"  engine, {mc['sessions']:,} sessions: {mc['mean']:+.6f} +/- {mc['standard_error']:.6f}{z}; passed "
              f"{mc['pass_chance']:.4f}, sold {mc['sale_chance']:.4f}, {mc['mean_deals']:.3f} deals")
    print(f"Time taken: {out['seconds']:.1f} s")
    return 0


__all__ = ["BANK_VALUE", "bank_value_main", "build_bank_value_parser"]

"""``python -m shoot_pontoon_env.simulate``: a session of rule-based players, with its result table."""

from __future__ import annotations

import time

from ..cli import Parser, UsageError, int_in, run
from ..engine.table import MAX_PLAYERS, MIN_PLAYERS
from ..rules import PRESETS
from ..players.session import run_session
from ..players.strategies import STRATEGIES


def build_parser() -> Parser:
    parser = Parser(prog="python -m shoot_pontoon_env.simulate", description=__doc__)
    parser.add_argument("--rules", default="shoot", choices=sorted(PRESETS), help="the rule set (a preset)")
    parser.add_argument("--deals", type=int_in(1, 10**8), default=2000, help="deals to play")
    parser.add_argument("--seed", type=int_in(0, 2**63 - 1), default=0, help="seed of the session's Generator")
    parser.add_argument("--players", nargs="+", default=["shoot_aware", "tips", "threshold", "tips", "random"],
                        choices=sorted(STRATEGIES), metavar="STRATEGY",
                        help=f"strategy of each seat ({MIN_PLAYERS}..{MAX_PLAYERS} seats; seat 0 banks first), "
                             f"from {sorted(STRATEGIES)}")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not MIN_PLAYERS <= len(args.players) <= MAX_PLAYERS:
        raise UsageError(f"argument --players: {len(args.players)} seats given, expected "
                         f"{MIN_PLAYERS}..{MAX_PLAYERS}")
    start = time.perf_counter()
    try:
        result = run_session(args.rules, args.players, args.deals, seed=args.seed)
    except ValueError as error:  # a table the rules cannot deal (too many seats for the shoe)
        raise UsageError(f"argument --players: {error}") from None
    seconds = time.perf_counter() - start
    print(f"{args.deals} deals of {args.rules!r} at {len(args.players)} seats in {seconds:.2f}s "
          f"({args.deals / seconds:,.0f} deals/s); bank turnovers: {result.turnovers}; final Shoot: {result.shoot}")
    print(f"{'seat':>4}  {'strategy':<12} {'deals as banker':>15} {'net chips':>10}")
    for seat, (name, net) in enumerate(zip(args.players, result.net)):
        print(f"{seat:>4}  {name:<12} {result.banker_deals[seat]:>15} {net:>+10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run(main))

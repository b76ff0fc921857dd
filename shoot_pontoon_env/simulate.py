"""``python -m shoot_pontoon_env.simulate``: a session of rule-based players, with its result table."""

from __future__ import annotations

import argparse
import time

from .rules import PRESETS
from .session import run_session
from .strategies import STRATEGIES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", default="shoot", choices=sorted(PRESETS))
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", nargs="+", default=["shoot_aware", "tips", "threshold", "tips", "random"],
                        choices=sorted(STRATEGIES), help="strategy of each seat; seat 0 banks first")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    result = run_session(args.rules, args.players, args.deals, seed=args.seed)
    seconds = time.perf_counter() - start
    print(f"{args.deals} deals of {args.rules!r} at {len(args.players)} seats in {seconds:.2f}s "
          f"({args.deals / seconds:,.0f} deals/s); bank turnovers: {result.turnovers}; final Shoot: {result.shoot}")
    print(f"{'seat':>4}  {'strategy':<12} {'deals as banker':>15} {'net chips':>10}")
    for seat, (name, net) in enumerate(zip(args.players, result.net)):
        print(f"{seat:>4}  {name:<12} {result.banker_deals[seat]:>15} {net:>+10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

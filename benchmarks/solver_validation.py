"""The solver against the Table: 1M-hand Monte Carlo per preset, the Shoot policy, forced splits.

Run (2 cores, about 20 minutes for everything but the exact split reference):

    .venv/bin/python benchmarks/solver_validation.py --hands 1000000 --workers 2

Sections (``--only``, comma separated; default ``timing,presets,shoot,splits``):

- ``timing``: solve time of each preset, finite shoe and infinite deck (best of 5).
- ``presets``: the Table plays ``OptimalPunter`` at a two-seat table for ``--hands`` deals per
  preset; the mean result per unit stake must lie within 3 standard errors of the solver's value.
- ``shoot``: the Shoot preset with all three betting points and a Shoot bet allowance of R original
  stakes (``max_shoot_bet = R * base_stake``, a Shoot of 10**9 chips so the allowance never binds
  otherwise), ``--shoot-hands`` deals per R in ``--shoot-ratios``.
- ``splits``: deals that all start with one pair that the policy splits and resplits,
  ``--split-hands`` each, against the solver's value of that start (measures the resplit
  approximation against simulation).
- ``readings``: the exact return of the casino presets under each reading of drawing on 21 and of
  the dealer's five cards, beside the published figure of the 004 game.
- ``split-reference``: the resplit approximation measured exactly, against the slow reference
  recursion of ``tests/solver/reference.py`` (tens resplit against a 5 in 1- and 2-deck casino
  shoes: about 15 minutes).

Prints Markdown rows for docs/RESULTS.md; ``--json PATH`` also writes the numbers.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shoot_pontoon_env.rules import PRESETS, SHOOT  # noqa: E402  (after the path insert)
from shoot_pontoon_env.solver import solve  # noqa: E402  (after the path insert)
from shoot_pontoon_env.solver.solution import node_index  # noqa: E402  (after the path insert)
from shoot_pontoon_env.solver.validate import estimate  # noqa: E402  (after the path insert)

ALL_POINTS = ("before_deal", "before_second_card", "before_fourth_card")
SPLIT_CASES = [("shoot", (7, 7), None), ("shoot", (6, 6), None), ("playtech", (0, 0), None),
               ("casino", (7, 7), 5)]
NAMES = "A23456789T"


def timing(report: dict) -> None:
    print("\n## Solve time (best of 5, this machine)\n")
    print("| preset | decks | finite shoe (s) | infinite deck (s) |")
    print("|---|---|---|---|")
    for name, rules in PRESETS.items():
        best = {}
        for inf in (False, True):
            times = []
            for _ in range(5):
                start = time.perf_counter()
                solve(rules, infinite=inf)
                times.append(time.perf_counter() - start)
            best[inf] = min(times)
        report.setdefault("timing", {})[name] = {"finite": best[False], "infinite": best[True]}
        print(f"| {name} | {rules.num_decks} | {best[False]:.2f} | {best[True]:.2f} |", flush=True)


PUBLISHED_PLAYTECH = -0.0038
"""The published player return of the 004 game with perfect play (house edge 0.38%)."""


def readings(report: dict) -> None:
    """The exact return of the casino presets under each reading of drawing on 21 and of the
    dealer's five cards (docs/RULES.md, interpretations 5 and 6)."""
    print("\n## Casino presets under each reading (exact, per unit stake; finite shoe / infinite deck)\n")
    print("| preset | draw on 21 | dealer's five cards | finite shoe | infinite deck | preset value |")
    print("|---|---|---|---|---|---|")
    for name in ("playtech", "casino"):
        preset = PRESETS[name]
        for draw in ("no", "soft"):
            for five in ("trick", "total", "draw_on"):
                rules = preset.replace(draw_on_21=draw, banker_five_cards=five)
                finite = solve(rules).expected_return
                infinite = solve(rules, infinite=True).expected_return
                mark = "**preset**" if rules == preset else ""
                report.setdefault("readings", {})[f"{name}/{draw}/{five}"] = {"finite": finite, "infinite": infinite}
                print(f"| {name} | {draw} | {five} | {finite:+.5f} | {infinite:+.5f} | {mark} |", flush=True)
    value = solve(PRESETS["playtech"]).expected_return
    print(f"\nplaytech preset {value:+.5f} against the published {PUBLISHED_PLAYTECH:+.4f}: "
          f"difference {value - PUBLISHED_PLAYTECH:+.5f}")


def presets(report: dict, hands: int, workers: int, seed: int, names: list[str]) -> None:
    print(f"\n## Expected return vs Monte Carlo at the Table ({hands:,} hands each)\n")
    print("| preset | decks | solver | infinite deck | Monte Carlo | std. error | z | MC seconds |")
    print("|---|---|---|---|---|---|---|---|")
    for name in names:
        rules = PRESETS[name]
        sol = solve(rules)
        inf = solve(rules, infinite=True)
        est = estimate(rules, hands, seed=seed, workers=workers)
        z = est.z(sol.expected_return)
        report.setdefault("presets", {})[name] = {
            "expected_return": sol.expected_return, "infinite_deck_return": inf.expected_return,
            "mc_mean": est.mean, "mc_std_error": est.std_error, "z": z, "hands": hands}
        print(f"| {name} | {rules.num_decks} | {sol.expected_return:+.5f} | {inf.expected_return:+.5f} | "
              f"{est.mean:+.5f} | {est.std_error:.5f} | {z:+.2f} | {est.seconds:.0f} |", flush=True)


def shoot(report: dict, hands: int, workers: int, seed: int, ratios: list[float]) -> None:
    print(f"\n## Shoot policy vs Monte Carlo at the Table ({hands:,} hands each, all three betting points)\n")
    print("| allowance R | solver (stake + Shoot) | stake part | Shoot part | Monte Carlo | std. error | z |")
    print("|---|---|---|---|---|---|---|")
    for ratio in ratios:
        rules = SHOOT.replace(shoot_bet_points=ALL_POINTS, initial_shoot=10**9,
                              max_shoot_bet=round(ratio * SHOOT.base_stake))
        sol = solve(rules, shoot_ratio=ratio)
        est = estimate(rules, hands, seed=seed, workers=workers, shoot_ratio=ratio)
        sh = sol.shoot
        z = est.z(sh.expected_return)
        report.setdefault("shoot", {})[str(ratio)] = {
            "expected_return": sh.expected_return, "stake_part": sh.stake_part, "shoot_part": sh.shoot_part,
            "mc_mean": est.mean, "mc_std_error": est.std_error, "z": z, "hands": hands}
        print(f"| {ratio:g} | {sh.expected_return:+.5f} | {sh.stake_part:+.5f} | {sh.shoot_part:+.5f} | "
              f"{est.mean:+.5f} | {est.std_error:.5f} | {z:+.2f} |", flush=True)


def splits(report: dict, hands: int, workers: int, seed: int) -> None:
    print(f"\n## Forced pair starts vs Monte Carlo at the Table ({hands:,} hands each)\n")
    print("| preset | pair | up card | policy | solver value of the start | Monte Carlo | std. error | z |")
    print("|---|---|---|---|---|---|---|---|")
    for name, pair, up in SPLIT_CASES:
        sol = solve(name)
        plan = sol.splits[(up, pair[0])]
        policy = ("split, resplit" if plan.resplit else "split") if plan.split else "play"
        value = float(sol.start_values[up][node_index(pair)])
        est = estimate(name, hands, seed=seed, workers=workers, start=(pair, up))
        z = est.z(value)
        label = NAMES[pair[0]] * 2
        report.setdefault("splits", {})[f"{name} {label} up {up}"] = {
            "value": value, "mc_mean": est.mean, "mc_std_error": est.std_error, "z": z, "hands": hands}
        up_name = "-" if up is None else NAMES[up]
        print(f"| {name} | {label} | {up_name} | {policy} | {value:+.4f} | {est.mean:+.4f} | "
              f"{est.std_error:.4f} | {z:+.2f} |", flush=True)


def split_reference(report: dict) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "solver"))
    from reference import split_value

    from shoot_pontoon_env.rules import CASINO
    from shoot_pontoon_env.solver.deck import Deck
    from shoot_pontoon_env.solver.solve import split_plan

    print("\n## Resplit approximation, exact (tens resplit to 3 hands against a 5, casino rules)\n")
    print("| decks | expected hands | solver value of the split | exact value | error |")
    print("|---|---|---|---|---|")
    for decks in (1, 2):
        rules = CASINO.replace(num_decks=decks)
        sol = solve(rules)
        plan = split_plan(sol.static, sol.closed, Deck(decks), rules, sol.context(5, 9), 5, 9, resplit=True)
        sol.splits[(5, 9)] = plan
        exact = split_value(sol, 9, 5)
        hands = plan.counts.non_pair + plan.counts.pair
        report.setdefault("split_reference", {})[str(decks)] = {"solver": plan.eg, "exact": exact}
        print(f"| {decks} | {hands:.3f} | {plan.eg:+.5f} | {exact:+.5f} | {plan.eg - exact:+.5f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--shoot-hands", type=int, default=1_000_000)
    parser.add_argument("--split-hands", type=int, default=200_000)
    parser.add_argument("--shoot-ratios", default="1,25")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--only", default="timing,presets,shoot,splits")
    parser.add_argument("--presets", default=",".join(PRESETS), help="presets for the 'presets' section")
    parser.add_argument("--json", default=None, help="write the numbers to this file")
    args = parser.parse_args(argv)
    sections = set(args.only.split(","))
    report: dict = {"command": " ".join(["benchmarks/solver_validation.py", *(argv or sys.argv[1:])])}
    if "timing" in sections:
        timing(report)
    if "presets" in sections:
        presets(report, args.hands, args.workers, args.seed, args.presets.split(","))
    if "shoot" in sections:
        shoot(report, args.shoot_hands, args.workers, args.seed,
              [float(r) for r in args.shoot_ratios.split(",")])
    if "splits" in sections:
        splits(report, args.split_hands, args.workers, args.seed)
    if "readings" in sections:
        readings(report)
    if "split-reference" in sections:
        split_reference(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

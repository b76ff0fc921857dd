"""``python -m shoot_pontoon_env.benchmark --policy SPEC [--policy TASK=SPEC ...] [--tasks NAME ...]
[--quick] [--out DIR]``: scores policies on ShootPontoonBench-v1's tasks (docs/BENCHMARK.md), each on the
task's fixed hands against its reference, printed and written as JSON and Markdown.

SPEC is any policy ``shoot_pontoon_env.evaluate`` takes (a name, ``module:Name``, a model file); a bare
SPEC is scored on every selected punter task, ``TASK=SPEC`` on that task alone (the banker task's
policies are named so: ``shoot-banker=dealer``), and ``PUNTER/BANKER`` on the heads-up pair task. To run the
suite for a learning algorithm (training on every task and seed, then rliable's aggregates), use the
checkout's ``python -m train.bench``."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..cli import Parser, UsageError, run, strict_json
from .score import TaskScore, score_policy
from .suite import PAIR, PUNTER, SUITE, TASKS, Task, task


def build_parser() -> Parser:
    parser = Parser(prog="python -m shoot_pontoon_env.benchmark", description=__doc__)
    parser.add_argument("--policy", action="append", required=True, metavar="[TASK=]SPEC",
                        help="a policy to score (repeatable)")
    parser.add_argument("--tasks", nargs="+", default=None, metavar="NAME",
                        help=f"tasks to score on (default: all): {', '.join(t.name for t in TASKS)}")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2,000 hands a task")
    parser.add_argument("--out", type=Path, default=None, help="write scores.json and scores.md here")
    return parser


def planned(args: argparse.Namespace) -> list[tuple[Task, str]]:
    """(task, spec) pairs the options ask for, in the suite's order."""
    try:
        chosen = [task(name) for name in args.tasks] if args.tasks else list(TASKS)
    except ValueError as error:
        raise UsageError(f"argument --tasks: {error}") from None
    plan = []
    for given in args.policy:
        name, equals, spec = given.partition("=")
        if equals:
            try:
                plan.append((task(name), spec))
            except ValueError as error:
                raise UsageError(f"argument --policy: {given!r}: {error}") from None
        else:
            seat = PAIR if "/" in given else PUNTER
            plan += [(t, given) for t in chosen if t.seat == seat]
    return sorted(plan, key=lambda item: TASKS.index(item[0]))


def score_one(target: Task, spec: str, quick: bool) -> TaskScore:
    policy: object = tuple(spec.split("/", 1)) if target.seat == PAIR else spec
    try:
        return score_policy(target, policy, name=spec, quick=quick)
    except ValueError as error:
        raise UsageError(f"argument --policy: {spec!r} on {target.name}: {error}") from None


def markdown(scores: list[TaskScore]) -> str:
    lines = [f"## {SUITE}", "", "| task | policy | score (0 random, 1 reference) | raw (paired, vs reference) | "
             "reference |", "|---|---|---|---|---|"]
    for s in scores:
        score = f"{s.score:+.3f}" + (f" ± {s.score_ci95:.3f}" if s.score_ci95 is not None else "")
        raw = f"{s.raw:+.4f}" + (f" ± {s.raw_ci95:.4f}" if s.raw_ci95 is not None else "")
        lines.append(f"| {s.task} | {s.policy} | {score} | {raw} | {s.reference} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    plan = planned(args)
    if not plan:
        raise UsageError("argument --policy: no selected task fits these policies (a bare SPEC is scored on the "
                         "punter tasks, PUNTER/BANKER on headsup-pair, TASK=SPEC on TASK)")
    scores = [score_one(target, spec, args.quick) for target, spec in plan]
    text = markdown(scores)
    print(text, end="")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "scores.json").write_text(strict_json({"suite": SUITE, "quick": args.quick,
                                                           "scores": [s.to_dict() for s in scores]}, indent=2) + "\n")
        (args.out / "scores.md").write_text(text)
        print(f"written to {args.out}/: scores.json, scores.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(run(main))

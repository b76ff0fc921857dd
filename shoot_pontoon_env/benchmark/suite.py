"""ShootPontoonBench-v1: the suite's tasks, fixed: each an env id and its arguments, the seat the learner
plays, the training budget, the evaluation's hands and seed, and the reference its score is scaled by.

A task's score is ``(policy - random) / (reference - random)``: 0 for the uniform random policy, 1 for the
reference, all three measured on the task's same hands (common random numbers), so the score's interval
is the paired difference's. The reference is the exact optimum (``optimal``) for a punter seat, the best
rule-based banker on those hands for the banker seat, and, for the heads-up pair, a score of
``1 - exploitability(pair) / exploitability(zero pair)`` where 1 is an equilibrium (exploitability 0).

Changing a task (its arguments, budget, hands or seed) makes a new version of the suite: scores of two
versions are not comparable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SUITE = "ShootPontoonBench-v1"

PUNTER, BANKER, PAIR = "punter", "banker", "heads-up pair"
"""What the learner provides for a task: a punter policy, a banker policy, or one of each heads-up."""

SHOOT_BETS_RULES = {"preset": "shoot", "shoot_bet_points": ["before_second_card", "before_fourth_card"],
                    "max_shoot_bet": 2}
"""The Shoot preset with the seed's other betting points and one base stake a bet (the Shoot-bet task)."""

PAIR_ZERO = ("threshold21", "stand17")
"""The heads-up pair scored 0 on the pair task (a punter that twists to 21 against a banker standing on
17): exploitability needs deterministic policies, so the uniform random pair cannot be the zero."""


@dataclass(frozen=True)
class Task:
    """One task of the suite."""

    name: str
    env_id: str
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    seat: str = PUNTER
    train_steps: int = 2_000_000
    """The suite's fixed training budget (environment steps) for a learner on this task."""
    eval_hands: int = 100_000
    eval_seed: int = 20261206
    rules: str | None = None
    """The heads-up pair task's rules (the solver's heads-up game)."""
    banker_env_id: str | None = None
    """The pair task's second env, where the learner trains its banker."""

    def hands(self, quick: bool = False) -> int:
        return QUICK_HANDS if quick else self.eval_hands


QUICK_HANDS = 2_000
"""Hands of a task's evaluation in a ``--quick`` (smoke) run."""
QUICK_STEPS = 2_048
"""Training steps of a learner in a ``--quick`` run."""

TASKS: tuple[Task, ...] = (
    Task("playtech-punter", "ShootPontoon-Playtech-v0", {"num_players": 2, "stake_levels": [1]}),
    Task("casino-punter", "ShootPontoon-Casino-v0", {"num_players": 2, "stake_levels": [1]}),
    Task("shoot-punter", "ShootPontoon-v0", {"stake_levels": [2]}),
    Task("shoot-punter-bets", "ShootPontoon-v0", {"stake_levels": [2], "rules": SHOOT_BETS_RULES}),
    Task("shoot-banker", "ShootPontoonBanker-v0", {"num_players": 4}, seat=BANKER),
    Task("headsup-pair", "ShootPontoon-v0", {"num_players": 2, "stake_levels": [2]}, seat=PAIR, rules="shoot",
         banker_env_id="ShootPontoonBanker-v0"),
)
"""The suite, in its fixed order."""

LEADERBOARD_TASKS = ("playtech-punter", "shoot-punter", "shoot-punter-bets")
"""The tasks every leaderboard row reports."""


def task(name: str) -> Task:
    """The task named ``name``; a ValueError naming it and the tasks otherwise."""
    for candidate in TASKS:
        if candidate.name == name:
            return candidate
    raise ValueError(f"task {name!r}: expected one of {[t.name for t in TASKS]}")

"""ShootPontoonBench-v1: a named, versioned suite of tasks, each scored against an exact reference
(``suite.py``), a policy's score on a task (``score.py``), and rliable's aggregates over seeds and tasks
(``aggregate.py``, the ``benchmark`` extra). docs/BENCHMARK.md shows the routes and the leaderboard."""

from .score import TaskScore, normalised, score_pair, score_policy
from .suite import LEADERBOARD_TASKS, SUITE, TASKS, Task, task

__all__ = ["LEADERBOARD_TASKS", "SUITE", "TASKS", "Task", "TaskScore", "normalised", "score_pair", "score_policy",
           "task"]

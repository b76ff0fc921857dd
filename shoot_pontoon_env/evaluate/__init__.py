"""Evaluate and benchmark policies, from any project: :func:`evaluate` plays policies on the same
hands and pairs each with a reference (the exact optimum by default), :func:`exploitability` gives a
heads-up pair's exploitability, ``python -m shoot_pontoon_env.evaluate`` is the command line (reports
and plots). docs/BENCHMARK.md shows the routes."""

from .api import BANKER_REFERENCES, EvaluationResult, batch_policy, evaluate, exploitability
from .stats import Summary

__all__ = ["BANKER_REFERENCES", "EvaluationResult", "Summary", "batch_policy", "evaluate", "exploitability"]

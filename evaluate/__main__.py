"""``python -m evaluate``: the library's evaluation command (``python -m shoot_pontoon_env.evaluate``)
from a checkout, with the checkout's agents (``agents.make_agent``: ``equilibrium`` besides the
library's names)."""

from __future__ import annotations

from shoot_pontoon_env.cli import run


def main(argv: list[str] | None = None) -> int:
    from agents import make_agent
    from shoot_pontoon_env.evaluate.__main__ import main as evaluate

    return evaluate(argv, resolve=make_agent, prog="python -m evaluate")


if __name__ == "__main__":
    raise SystemExit(run(main))

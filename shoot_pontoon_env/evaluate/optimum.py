"""The exact references of an evaluation: the solver's optimum at an env's table, and the Shoot bet
the optimal punter weighs there."""

from __future__ import annotations

from typing import Any


def optimal_value(env: Any, quiet: bool = False) -> float | None:
    """The solver's expected return per unit stake for the env's rules (None for a banker seat)."""
    from shoot_pontoon_env.envs.banker import ShootPontoonBankerEnv
    from shoot_pontoon_env.solver import solve

    base = env.unwrapped
    if isinstance(base, ShootPontoonBankerEnv):
        return None
    banker = base.banker_strategy if base.rules.banker_play == "free" else None
    allowance = env_shoot_allowance(env)
    try:
        if allowance:  # the optimum with its Shoot bets: stake part and Shoot part together
            return solve(base.rules, banker=banker, shoot_ratio=allowance / base.rules.base_stake).shoot.expected_return
        return solve(base.rules, banker=banker).expected_return
    except (TypeError, ValueError, NotImplementedError) as error:  # a banker the solver cannot model
        if not quiet:
            print(f"no solver optimum for this table: {error}")
        return None


def env_shoot_allowance(env: Any) -> int:
    """The Shoot bet the optimal punter weighs at each betting point at ``env``'s agent seat."""
    from shoot_pontoon_env.models.player import EnvContext, shoot_allowance
    from shoot_pontoon_env.models.resolve import shoot_levels

    context = EnvContext.of(env)
    return shoot_allowance(context.rules, shoot_levels(context.action_table))

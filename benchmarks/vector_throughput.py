"""The batched engine's throughput beside Gymnasium's Blackjack-v1 and a SyncVectorEnv of the scalar env,
measured in one run, with its memory per table and how its cost grows with the number of tables and seats.

Run: ``.venv/bin/python benchmarks/vector_throughput.py [--quick] [--compact [--repeats N]] [--observation-cost]``

Every env plays uniformly random legal actions (the mask's indices, drawn in NumPy for the batched
env). Rates are agent decisions per second of CPU time of this process (``time.process_time``: the
machine is shared, so wall time would measure the neighbours too); only the env's ``step`` (and the
scalar envs' resets) are timed, not the drawing of actions. Results are in ``docs/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from shoot_pontoon_env.vector.layout import C_BLIND


def random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def blackjack_rate(steps: int) -> float:
    env = gym.make("Blackjack-v1")
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    actions = rng.integers(2, size=steps)
    start = time.process_time()
    for action in actions:
        _, _, terminated, truncated, _ = env.step(int(action))
        if terminated or truncated:
            env.reset()
    return steps / (time.process_time() - start)


def scalar_rate(env_id: str, steps: int, **kwargs) -> float:
    env = gym.make(env_id, **kwargs)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    spent = 0.0
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        start = time.process_time()
        _, _, terminated, _, info = env.step(action)
        if terminated:
            _, info = env.reset()
        spent += time.process_time() - start
    return steps / spent


def vector_rate(envs: gym.vector.VectorEnv, steps: int) -> float:
    """Agent decisions per second: steps that reset a table (NEXT_STEP autoreset) are not decisions."""
    rng = np.random.default_rng(0)
    _, info = envs.reset(seed=0)
    spent, decisions = 0.0, 0
    resetting = np.zeros(envs.num_envs, dtype=bool)
    next_step = envs.metadata.get("autoreset_mode") == AutoresetMode.NEXT_STEP
    for _ in range(steps):
        actions = random_actions(rng, info["action_mask"])
        start = time.process_time()
        _, _, terminated, truncated, info = envs.step(actions)
        spent += time.process_time() - start
        decisions += int((~resetting).sum())
        if next_step:
            resetting = terminated | truncated
    envs.close()
    return decisions / spent


def batched(env_id: str, num_envs: int, mode: AutoresetMode = AutoresetMode.NEXT_STEP,
            **kwargs) -> gym.vector.VectorEnv:
    return gym.make_vec(env_id, num_envs=num_envs, autoreset_mode=mode, copy=False, **kwargs)


def autoreset_modes(budget: int) -> None:
    """NEXT_STEP (a finished table resets at its next step, which is no decision) beside SAME_STEP
    (reset within the step that ends the episode, the final observation in the info: what SB3's
    ``PontoonVecEnv`` and ``python -m train`` use)."""
    print("\nAutoreset modes (ShootPontoon-v0, 4096 tables):\n")
    print("| autoreset_mode | decisions/s |")
    print("|---|---|")
    for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        print(f"| {mode.value} | {vector_rate(batched('ShootPontoon-v0', 4096, mode), steps_for(4096, budget)):,.0f} |")


def steps_for(num_envs: int, budget: int) -> int:
    return max(20, budget // num_envs)


def observation_cost(budget: int, configs: list[tuple[str, dict]]) -> None:
    """The same batched steps with and without encoding the observation (the batch's ``C_BLIND``
    flag, which the kernel-played evaluation sets): what the observation costs of a step."""
    print("\nCost of the observation (4096 tables; blind: the kernel encodes no observation):\n")
    print("| env | with the observation | blind | blind / with |")
    print("|---|---|---|---|")
    for env_id, kwargs in configs:
        rates = []
        for blind in (False, True):
            envs = batched(env_id, 4096, **kwargs)
            envs.unwrapped.batch.config.c[C_BLIND] = int(blind)
            rates.append(vector_rate(envs, steps_for(4096, budget)))
        print(f"| {env_id} {kwargs or ''} | {rates[0]:,.0f} | {rates[1]:,.0f} | {rates[1] / rates[0]:.2f} |")


def compact_rates(budget: int, blackjack_steps: int, repeats: int) -> None:
    """The punter ids at 4096 tables with ``observation="compact"`` (written by the kernel) beside the
    flat observation and no observation at all, and as a multiple of Blackjack-v1, each measured
    ``repeats`` times in turn with Blackjack-v1 measured before each round (the machine is shared: a
    single pass moved the ratio by a fifth between runs); the medians, and the median of the rounds'
    ratios."""
    configs = [("ShootPontoon-v0", {}), ("ShootPontoon-Playtech-v0", {"num_players": 2, "stake_levels": [1]})]
    rates: dict[tuple[str, str], list[float]] = {}
    ratios: dict[str, list[float]] = {env_id: [] for env_id, _ in configs}
    references = []
    for _ in range(repeats):
        reference = blackjack_rate(blackjack_steps)
        references.append(reference)
        for env_id, kwargs in configs:
            flat = vector_rate(batched(env_id, 4096, **kwargs), steps_for(4096, budget))
            compact = vector_rate(batched(env_id, 4096, observation="compact", **kwargs), steps_for(4096, budget))
            envs = batched(env_id, 4096, **kwargs)
            envs.unwrapped.batch.config.c[C_BLIND] = 1
            blind = vector_rate(envs, steps_for(4096, budget))
            for form, rate in (("flat", flat), ("compact", compact), ("blind", blind)):
                rates.setdefault((env_id, form), []).append(rate)
            ratios[env_id].append(compact / reference)
    print(f"Gymnasium Blackjack-v1 (scalar, random actions): {np.median(references):,.0f} steps/s of CPU "
          f"(median of {repeats}: {min(references):,.0f} to {max(references):,.0f})")
    print(f"\nThe compact observation (4096 tables; blind: no observation encoded; medians of {repeats} rounds):\n")
    print("| env | flat | compact | blind | compact x Blackjack-v1 (rounds' range) |")
    print("|---|---|---|---|---|")
    for env_id, kwargs in configs:
        flat, compact, blind = (np.median(rates[(env_id, form)]) for form in ("flat", "compact", "blind"))
        ratio = ratios[env_id]
        print(f"| {env_id} {kwargs or ''} | {flat:,.0f} | {compact:,.0f} | {blind:,.0f} | "
              f"{np.median(ratio):.0f} ({min(ratio):.0f}-{max(ratio):.0f}) |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the steps")
    parser.add_argument("--observation-cost", action="store_true",
                        help="only the cost of the observation and of the autoreset modes")
    parser.add_argument("--compact", action="store_true", help="only the compact observation's rates")
    parser.add_argument("--repeats", type=int, default=5, help="rounds of the --compact measurement (medians)")
    args = parser.parse_args(argv)
    scale = 0.1 if args.quick else 1.0
    budget = int(2_000_000 * scale)
    if args.compact:
        compact_rates(budget, int(100_000 * scale), max(1, args.repeats))
        return 0
    configs = [("ShootPontoon-v0", {}), ("ShootPontoon-Playtech-v0", {"num_players": 2, "stake_levels": [1]}),
               ("ShootPontoonBanker-v0", {})]
    if args.observation_cost:
        observation_cost(budget, configs)
        autoreset_modes(budget)
        return 0
    reference = blackjack_rate(int(100_000 * scale))
    print(f"Gymnasium Blackjack-v1 (scalar, random actions): {reference:,.0f} steps/s of CPU\n")

    print("| env | stepped as | tables | decisions/s | x Blackjack-v1 | x SyncVectorEnv |")
    print("|---|---|---|---|---|---|")
    for env_id, kwargs in configs:
        label = env_id + (f" {kwargs}" if kwargs else "")
        scalar = scalar_rate(env_id, int(5_000 * scale), **kwargs)
        print(f"| {label} | scalar env | 1 | {scalar:,.0f} | {scalar / reference:.2f} | |")
        sync = vector_rate(gym.make_vec(env_id, num_envs=64, vectorization_mode="sync", **kwargs),
                           steps_for(64, int(50_000 * scale)))
        print(f"| {label} | SyncVectorEnv | 64 | {sync:,.0f} | {sync / reference:.2f} | 1.00 |")
        for n in (1, 64, 1024, 4096, 65536):
            rate = vector_rate(batched(env_id, n, **kwargs), steps_for(n, budget))
            print(f"| {label} | batched | {n:,} | {rate:,.0f} | {rate / reference:.1f} | {rate / sync:.1f} |")

    print("\nMemory per table (the batch's arrays: two state rows, observation, mask; the default tables):\n")
    print("| env | bytes per table | of which observation |")
    print("|---|---|---|")
    for env_id, kwargs in configs + [("ShootPontoon-Casino-v0", {})]:
        for n in (1024, 65536):
            envs = batched(env_id, n, **kwargs)
            batch = envs.unwrapped.batch
            per_table = batch.nbytes / n
            if n == 65536:
                print(f"| {env_id} {kwargs or ''} | {per_table:,.0f} | {batch.obs.nbytes / n:,.0f} |")
            envs.close()

    print("\nCost by seats (ShootPontoon-v0, 4096 tables, tips punters and a stand17 banker):\n")
    print("| seats | decisions/s | ns per decision |")
    print("|---|---|---|")
    for players in (2, 3, 4, 6, 8, 10):
        rules = "shoot" if players <= 8 else {"preset": "shoot", "num_decks": 2}
        rate = vector_rate(batched("ShootPontoon-v0", 4096, num_players=players, rules=rules),
                           steps_for(4096, budget))
        print(f"| {players} | {rate:,.0f} | {1e9 / rate:,.0f} |")
    observation_cost(budget, configs)
    autoreset_modes(budget)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

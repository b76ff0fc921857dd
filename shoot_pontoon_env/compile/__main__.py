"""``python -m shoot_pontoon_env.compile``: compile every part of the batched engine into numba's cache
now, so that no ``gym.make``, ``batched_env`` or evaluation compiles on its first use. Run it once after
installing, and in a CI image or on each new node of a cluster (the cache is per machine and user).
Prints each part as it is loaded or compiled, with its CPU seconds."""

from __future__ import annotations

import sys
import time
import warnings

from ..cli import Parser, UsageError, run
from ..vector.compiler import GROUPS, KernelCacheWarning, disabled_reason


def build_parser() -> Parser:
    return Parser(prog="python -m shoot_pontoon_env.compile", description=__doc__)


def main(argv: list[str] | None = None) -> int:
    build_parser().parse_args(argv)
    reason = disabled_reason()
    if reason is not None:
        raise UsageError(reason)
    from ..vector import kernel

    start_cpu, start_wall = time.process_time(), time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", KernelCacheWarning)
        for number, group in enumerate(GROUPS, 1):
            cpu, wall = time.process_time(), time.perf_counter()
            kernel.compile(group)
            how = "compiled" if group in kernel.COMPILER.compiled_now else "loaded from the cache"
            print(f"part {number} of {len(GROUPS)} ({group}): {how} in {time.process_time() - cpu:.1f} CPU-s "
                  f"({time.perf_counter() - wall:.1f} s)", flush=True)
    for warning in caught:
        print(f"warning: {warning.message}", file=sys.stderr)
    place = kernel.COMPILER.cache_place()
    print(f"the batched engine is ready: {time.process_time() - start_cpu:.1f} CPU-s in all "
          f"({time.perf_counter() - start_wall:.1f} s); {place}")
    if kernel.COMPILER.cache_place_kept():
        return 0
    print("error: nothing was kept for later processes (the warning above says why): set NUMBA_CACHE_DIR to a "
          "folder of your own and run this again", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(run(main))

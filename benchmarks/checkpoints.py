"""The checkpoint loop the OpenSpiel benchmarks share: train to each checkpoint in turn, timing the training
alone (not the measurements taken between checkpoints)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator


def trained_to(checkpoints: Iterable[int], step: Callable[[], object]) -> Iterator[tuple[int, float]]:
    """Call ``step`` until each checkpoint (ascending) is reached; yield the checkpoint and the seconds
    spent in ``step`` so far, so the caller measures at each before training on."""
    done, training = 0, 0.0
    for checkpoint in sorted(checkpoints):
        begin = time.perf_counter()
        for _ in range(checkpoint - done):
            step()
        training += time.perf_counter() - begin
        done = checkpoint
        yield checkpoint, training

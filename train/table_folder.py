"""A table self-play run's folder (``train/table_selfplay.py``): what a run writes there (all that
``--overwrite`` removes, so that no file of an earlier run stays beside the new one's), the trainer
state a ``--resume`` continues from, and the TensorBoard scalars.

A generation is complete once its ``generations/N/trainer.json`` is written: the last file of the
generation, after both roles' models, their trainer states and the history row. A resume continues
after the last complete generation and removes any later, partial one.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

CONFIG_FILE = "table_selfplay.yaml"
HISTORY_FILE = "history.json"
GENERATIONS = "generations"
TENSORBOARD = "tensorboard"
STATE_FILE = "trainer.json"
"""``generations/N/trainer.json``: the counters and the trainer's random state after generation N."""
STATE_MODEL = "trainer.zip"
"""``generations/N/ROLE/trainer.zip``: the role's network as it trains (inputs scaled, where
``model.zip`` has the scale folded in) with its optimizer's state."""
ENTRIES = (CONFIG_FILE, HISTORY_FILE, GENERATIONS, "punter", "banker", "table_selfplay.png", TENSORBOARD,
           "measure.json", "exploitability.json", "session_check.json")
"""Everything in a run's folder that a run, ``train.table_measure``, ``train.table_exploitability`` or
``train.session_check`` writes: what ``--overwrite`` removes, and nothing else."""
GENERATION_NAME = re.compile(r"0|[1-9][0-9]*")


def generation_folders(run: Path) -> list[tuple[int, Path]]:
    """Every ``generations/N`` folder of ``run``, in order. A folder whose name is not a generation's
    (``x``, ``01``, a digit outside 0-9 such as ``²``) is refused: nothing this trainer wrote."""
    root = run / GENERATIONS
    if not root.is_dir():
        return []
    found = []
    for path in root.iterdir():
        if not path.is_dir():
            continue
        if not GENERATION_NAME.fullmatch(path.name):
            raise ValueError(f"{ascii(str(path))}: not a generation folder (expected generations/N, N a "
                             "number in the digits 0-9 without leading zeros)")
        found.append((int(path.name), path))
    return sorted(found)


def write_atomic(path: Path, text: str) -> None:
    """``path`` holds the old text or the new, never a part (an interrupt in the middle of a write)."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text)
    os.replace(partial, path)


def write_state(folder: Path, state: dict[str, Any]) -> None:
    write_atomic(folder / STATE_FILE, json.dumps(state, indent=1) + "\n")


def last_complete(run: Path) -> int:
    """The last generation N such that generations 1..N all have their state file (0: none)."""
    done = {n for n, folder in generation_folders(run) if (folder / STATE_FILE).is_file()}
    last = 0
    while last + 1 in done:
        last += 1
    return last


def read_state(run: Path, generation: int, roles: tuple[str, ...]) -> dict[str, Any]:
    """Generation ``generation``'s state file, each value checked (a damaged one is named)."""
    path = run / GENERATIONS / str(generation) / STATE_FILE
    try:
        state = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"{path}: cannot be read ({' '.join(str(error).split())[:200]})") from None

    def count(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0

    ok = (isinstance(state, dict) and state.get("generation") == generation and count(state.get("episodes"))
          and all(isinstance(state.get(k), dict) and all(count(state[k].get(r)) for r in roles)
                  for k in ("decisions", "updates"))
          and isinstance(state.get("rng"), dict) and state["rng"].get("bit_generator") == "PCG64")
    if not ok:
        raise ValueError(f"{path}: not a trainer state of generation {generation} (expected generation, "
                         "episodes, decisions, updates and a PCG64 rng state)")
    return state


def read_history(run: Path, last: int) -> list[dict[str, Any]]:
    """The history rows of generations 0..``last`` (an interrupted run's later rows are dropped)."""
    path = run / HISTORY_FILE
    try:
        rows = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"{path}: cannot be read ({' '.join(str(error).split())[:200]})") from None
    kept = [r for r in rows if isinstance(r, dict) and isinstance(r.get("generation"), int)
            and r["generation"] <= last] if isinstance(rows, list) else []
    if [r["generation"] for r in kept] != list(range(last + 1)):
        raise ValueError(f"{path}: expected one row for each generation 0..{last}, found "
                         f"{[r.get('generation') for r in kept]}")
    return kept


class Scalars:
    """TensorBoard scalars of a run (``RUN/tensorboard``), every one at the step of the learners'
    decisions so far (both roles). A resume from ``purge_step`` hides what the interrupted run wrote
    from there on, so the curves do not run twice."""

    def __init__(self, folder: Path, purge_step: int | None = None) -> None:
        from torch.utils.tensorboard import SummaryWriter

        self.writer = SummaryWriter(str(folder), purge_step=purge_step)

    def add(self, prefix: str, values: dict[str, float], step: int) -> None:
        for name, value in values.items():
            self.writer.add_scalar(f"{prefix}/{name}", float(value), step)

    def measurement(self, row: dict[str, Any], roles: tuple[str, ...]) -> None:
        """A history row: each role's paired difference to its reference, its 95% half-width and mean."""
        step = sum(row["decisions"].values())
        for role in roles:
            self.add("measure", {f"{role}_paired": row[role]["paired"], f"{role}_ci": row[role]["ci"],
                                 f"{role}_mean": row[role]["mean"]}, step)
        self.add("run", {"generation": row["generation"], "episodes": row["episodes"],
                         "snapshots": row["snapshots"], "seconds": row["seconds"]}, step)
        self.writer.flush()

    def close(self) -> None:
        self.writer.close()

"""The learning curve of a training run, measured the way the table is: the run's checkpoints and its
final model play the tournament's hands and each is paired with the reference agent. A paired
difference on common hands has a far smaller interval than an unpaired evaluation (SB3's
``evaluations.npz``), and the final model's point is the table's own figure for it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from shoot_pontoon_env.models.safe_load import plain_data

CHECKPOINT_FILE = re.compile(r"^model_(?P<steps>\d+)_steps\.zip$")
"""How training names a checkpoint in ``RUN/checkpoints/`` (``model_<steps>_steps.zip``)."""
CHECKPOINTS, FINAL_MODEL = "checkpoints", "model.zip"


@dataclass(frozen=True)
class CurvePoint:
    steps: int
    """Training steps of the model (a checkpoint's from its name, the final model's from its data)."""
    path: Path
    final: bool
    """The run's final ``model.zip``."""


def _checkpoints(folder: Path) -> list[CurvePoint]:
    found = [CurvePoint(int(m["steps"]), path, False) for path in folder.glob("model_*_steps.zip")
             if (m := CHECKPOINT_FILE.match(path.name))] if folder.is_dir() else []
    return sorted(found, key=lambda p: p.steps)


def run_points(folder: Path, points: int) -> list[CurvePoint]:
    """The models of a run folder (or of its checkpoints folder) to measure, in order of steps: at most
    ``points`` checkpoints evenly spaced (the first and the last kept), then the final model where the
    run has one (a checkpoint of its steps holds its weights and is left out). ValueError says what is
    missing."""
    direct = _checkpoints(folder)
    run_dir = folder.parent if direct else folder
    found = direct or _checkpoints(folder / CHECKPOINTS)
    if not found:
        raise ValueError(f"{folder}: no checkpoints (model_<steps>_steps.zip) in it or in its {CHECKPOINTS}/ "
                         "folder: expected a training run's folder, its checkpoints folder or an evaluations.npz")
    indices = sorted(set(np.linspace(0, len(found) - 1, min(points, len(found))).round().astype(int)))
    chosen = [found[i] for i in indices]
    final = run_dir / FINAL_MODEL
    if final.is_file():
        steps = plain_data(final).get("num_timesteps")
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 0:
            raise ValueError(f"{final}: its data entry records no num_timesteps (expected a model saved by training)")
        chosen = sorted([p for p in chosen if p.steps != steps] + [CurvePoint(steps, final, True)],
                        key=lambda p: p.steps)
    return chosen

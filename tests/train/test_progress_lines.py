"""A training run whose output is no terminal (a file, a pipe) reports its progress in lines as it
goes: a progress bar redraws itself in place, which a file shows only when the run has ended."""

import io
import itertools
from pathlib import Path

from train.config import load_config
from train.run import ProgressBar, ProgressLines, build_model, callbacks, make_vec_env

ROOT = Path(__file__).resolve().parents[2]
TINY = ["total_timesteps=256", "n_envs=2", "n_steps=64", "batch_size=64", "n_epochs=1", "eval_freq=0",
        "checkpoint_freq=0", "progress_bar=true"]


def test_output_that_is_no_terminal_gets_progress_lines_as_the_run_goes(tmp_path):
    config = load_config(ROOT / "train" / "configs" / "playtech_punter.yml", [*TINY, f"log_dir={tmp_path}"])
    chosen = callbacks(config).callbacks  # pytest captures stdout: no terminal
    assert any(isinstance(c, ProgressLines) for c in chosen)
    assert not any(isinstance(c, ProgressBar) for c in chosen)
    seconds = itertools.count(0.0, 7.0)  # a clock that moves 7 s at every look
    stream = io.StringIO()
    progress = ProgressLines(every_s=30.0, clock=lambda: next(seconds), stream=stream)
    model = build_model(config, make_vec_env(config))
    model.learn(total_timesteps=config.total_timesteps, callback=progress)
    lines = stream.getvalue().splitlines()
    assert len(lines) >= 4  # one about every 30 s of the clock while it ran, and one at the end
    assert all(line.startswith("train: ") and " of 256 steps (" in line and " steps/s" in line
               for line in lines)
    assert lines[-1].startswith("train: 256 of 256 steps (100%)")
    steps = [int(line.split()[1].replace(",", "")) for line in lines]
    assert steps == sorted(steps) and steps[0] < 256

"""A table self-play run folder holds one run (``train/table_selfplay.py``, ``train/table_folder.py``): a
second run into it is refused in one line unless ``--overwrite`` (which removes the earlier run's
files first, so no generation of it stays); an interrupted run keeps its history and ``--resume``
continues it after its last complete generation, from the very weights, optimizer and random
state; a budget below one rollout per generation is refused in one line; updates and
measurements are TensorBoard scalars."""

from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from train import table_selfplay  # noqa: E402
from train.table_selfplay import TableSelfPlay, load_table_selfplay_config, main  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GROUPS = "groups=[{tables: 16, first_banker: random, frozen_share: 0.5}, {tables: 8, players: {0: dealer}}]"
ROLLOUT = 24 * 4
"""Learner decisions one rollout can collect: 24 tables x rollout_steps 4."""


def tiny(tmp_path: Path, generations: int = 2, total: int = 1500) -> list[str]:
    return ["--set", GROUPS, "rollout_steps=4", "eval_hands=100", f"generations={generations}",
            f"total_decisions={total}", f"log_dir={tmp_path}", "run_name=tiny"]


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:"), err
    return err[0]


def history(run: Path) -> list[dict]:
    return json.loads((run / "history.json").read_text())


def generation_names(run: Path) -> list[str]:
    return sorted(p.name for p in (run / "generations").iterdir())


def test_a_second_run_is_refused_and_overwrite_leaves_nothing_of_the_first(tmp_path, capsys):
    run = tmp_path / "tiny-seed0"
    assert main(tiny(tmp_path, generations=3, total=1500)) == 0
    rows = history(run)
    assert [r["generation"] for r in rows] == [0, 1, 2, 3] and generation_names(run) == ["1", "2", "3"]
    trained = sum(rows[-1]["decisions"].values())
    assert 1500 <= trained < 1500 + ROLLOUT  # the last generation ends with the rollout that reaches it
    (run / "exploitability.json").write_text("{}")  # another tool's report on this run
    capsys.readouterr()

    assert main(tiny(tmp_path, generations=2, total=1000)) == 2
    line = one_error_line(capsys)
    assert f"{run} already holds a run" in line and "--overwrite" in line and "--resume" in line, line
    assert generation_names(run) == ["1", "2", "3"]  # refused: nothing written or removed

    assert main(tiny(tmp_path, generations=2, total=1000) + ["--overwrite"]) == 0
    err = capsys.readouterr().err
    assert "--overwrite: removed the earlier run" in err
    assert generation_names(run) == ["1", "2"] and not (run / "exploitability.json").exists()
    assert [r["generation"] for r in history(run)] == [0, 1, 2]


def test_a_budget_below_a_rollout_per_generation_is_refused(capsys):
    """The issue's case: 1,000 decisions of 10 generations at the default 288 tables once trained
    73,974; each generation is at least one rollout of 32 steps of every table."""
    assert main(["--set", "total_decisions=1000"]) == 2
    line = one_error_line(capsys)
    assert "total_decisions = 1000: expected at least 92160" in line and "288 tables" in line, line
    config = load_table_selfplay_config(None, ["total_decisions=92160"])
    config.check_budget(288)
    config.total_decisions = 92159
    with pytest.raises(ValueError, match="total_decisions = 92159"):
        config.check_budget(288)


def test_an_interrupted_run_resumes_from_its_last_generation(tmp_path, monkeypatch, capsys):
    run = tmp_path / "tiny-seed0"
    args = tiny(tmp_path, generations=3) + ["banker.bank_deal_window=50"]  # the sale's deal means resume too
    collect = TableSelfPlay.collect
    caught: dict = {}

    def interrupted(self, steps, state):  # Ctrl-C at the first step after generation 1 is complete
        if (run / "generations" / "1" / "trainer.json").is_file():
            caught.update(rng=copy.deepcopy(self.rng.bit_generator.state), decisions=self.decisions(),
                          deal_means=copy.deepcopy(self.deal_means.table),
                          weights={r: copy.deepcopy(self.learners[r].policy.state_dict())
                                   for r in ("punter", "banker")},
                          adam={r: copy.deepcopy(self.learners[r].policy.optimizer.state_dict()["state"])
                                for r in ("punter", "banker")})
            raise KeyboardInterrupt
        return collect(self, steps, state)

    monkeypatch.setattr(TableSelfPlay, "collect", interrupted)
    assert main(args) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "1 complete generation(s)" in err[0] and "--resume" in err[0], err
    assert [r["generation"] for r in history(run)] == [0, 1]
    monkeypatch.setattr(TableSelfPlay, "collect", collect)

    # the restored trainer is the interrupted one at generation 1, to the bit
    config = load_table_selfplay_config(None, args[1:])
    restored = TableSelfPlay(config)
    assert restored.restore() == 1
    assert restored.rng.bit_generator.state == caught["rng"] and restored.decisions() == caught["decisions"]
    assert len(restored.snapshots) == 1
    assert len(caught["deal_means"]) > 1 and restored.deal_means.table == caught["deal_means"]
    for role in ("punter", "banker"):
        learner = restored.learners[role]
        for name, tensor in learner.policy.state_dict().items():
            np.testing.assert_array_equal(tensor.numpy(), caught["weights"][role][name].numpy(), err_msg=name)
        moments = learner.policy.optimizer.state_dict()["state"]
        for key, entry in caught["adam"][role].items():
            np.testing.assert_array_equal(moments[key]["exp_avg"].numpy(), entry["exp_avg"].numpy())
    capsys.readouterr()

    partial = run / "generations" / "2" / "punter"  # a generation the interrupt cut short
    partial.mkdir(parents=True)
    (partial / "model.zip").write_bytes(b"half")
    assert main(args + ["--resume"]) == 0
    rows = history(run)
    assert [r["generation"] for r in rows] == [0, 1, 2, 3] and generation_names(run) == ["1", "2", "3"]
    assert sum(rows[1]["decisions"].values()) == caught["decisions"]
    assert sum(rows[2]["decisions"].values()) > caught["decisions"]
    # each generation's own kept deals (a resume counts the deals after it), as plain means by key
    kept = [rows[g]["kept_deals"] for g in (1, 2, 3)]
    assert "kept_deals" not in rows[0] and all(len(row) > 1 and all(len(r) == 5 and r[3] >= 1 for r in row)
                                               for row in kept)
    assert sum(r[3] for r in kept[0]) == sum(count for count, _ in restored.deal_means.table.values())
    assert (partial / "model.zip").read_bytes() != b"half"
    assert "continues after generation 1 of 3" in capsys.readouterr().err

    assert main(args + ["--resume"]) == 2
    assert "holds a finished run" in one_error_line(capsys)


@pytest.mark.parametrize("extra, words", [
    (["total_decisions=3000"], "was started with other settings (total_decisions = 500, now 3000)"),
    (["seed=1"], "holds no complete generation"),
    (["--overwrite"], "--overwrite and --resume: choose one"),
])
def test_a_resume_that_cannot_continue_is_one_line(tmp_path, capsys, extra, words):
    assert main(tiny(tmp_path, generations=1, total=500)) == 0
    (tmp_path / "tiny-seed1" / "table_selfplay.yaml").parent.mkdir()
    (tmp_path / "tiny-seed1" / "table_selfplay.yaml").write_text(
        (tmp_path / "tiny-seed0" / "table_selfplay.yaml").read_text().replace("\nseed: 0\n", "\nseed: 1\n"))
    capsys.readouterr()
    assert main(tiny(tmp_path, generations=1, total=500) + extra + ["--resume"]) == 2
    line = one_error_line(capsys)
    assert words in line, line


def test_updates_and_measurements_are_tensorboard_scalars(tmp_path):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    assert main(tiny(tmp_path, generations=2)) == 0
    run = tmp_path / "tiny-seed0"
    events = EventAccumulator(str(run / "tensorboard"))
    events.Reload()
    tags = set(events.Tags()["scalars"])
    for role in ("punter", "banker"):
        for name in ("value_loss", "policy_gradient_loss", "entropy_loss", "approx_kl", "clip_fraction",
                     "loss",
                     "explained_variance", "learning_rate"):
            assert f"{role}/{name}" in tags, (role, name)
        entropy = [e.value for e in events.Scalars(f"{role}/entropy_loss")]
        assert all(v < 0 for v in entropy)  # minus the entropy of a policy with choices
        paired = events.Scalars(f"measure/{role}_paired")
        rows = history(run)
        assert [e.step for e in paired] == [sum(r["decisions"].values()) for r in rows]
        np.testing.assert_allclose([e.value for e in paired], [r[role]["paired"] for r in rows], rtol=1e-6)


def test_ctrl_c_keeps_the_history(tmp_path):
    """A real SIGINT once generation 0 is measured: the run says so in one line (exit 130) and
    history.json holds generation 0."""
    command = [sys.executable, "-m", "train.table_selfplay", *tiny(tmp_path, generations=2, total=10_000_000)]
    # SIGINT as a terminal delivers it: a test run started in the background of a shell without job control
    # inherits SIGINT ignored, and the child would train on through the signal
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)},
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    first = process.stdout.readline()
    assert json.loads(first)["generation"] == 0, first
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=1200)
    assert process.returncode == 130, err
    lines = [line for line in err.splitlines() if not line.startswith("shoot-pontoon-env:")]
    assert len(lines) == 1 and lines[0].startswith("interrupted:") and "history.json" in lines[0], err
    assert [r["generation"] for r in history(tmp_path / "tiny-seed0")] == [0]


def test_the_run_folder_helpers_are_shared():
    """``python -m train`` and the table trainer refuse and remove through the same helper."""
    from train import config, run

    assert run.RunExists is config.RunExists and table_selfplay.claim_folder is config.claim_folder


def test_the_single_seat_selfplay_refuses_a_second_run_too(tmp_path, capsys):
    """``python -m train.selfplay`` (the older route) keeps one run a folder the same way."""
    from train import selfplay

    run = tmp_path / "selfplay-seed0"
    (run / "punter" / "league").mkdir(parents=True)
    (run / "punter" / "league" / "gen9.zip").write_bytes(b"an earlier run's snapshot")
    (run / "selfplay.yaml").write_text("generations: 9\n")
    assert selfplay.main(["--set", f"log_dir={tmp_path}", "generations=0"]) == 2  # bad: nothing removed
    capsys.readouterr()
    assert selfplay.main(["--set", f"log_dir={tmp_path}"]) == 2
    line = one_error_line(capsys)
    assert f"{run} already holds a run (selfplay.yaml, punter)" in line and "--overwrite" in line, line
    assert (run / "punter" / "league" / "gen9.zip").is_file()
    from train.config import claim_folder

    claim_folder(run, selfplay.RUN_ENTRIES, overwrite=True)
    assert sorted(p.name for p in run.iterdir()) == []


def test_a_resume_replaces_what_the_cut_generation_wrote(tmp_path, capsys):
    """A run stopped after generation 2's measurement but before its state file: the resume redoes
    generation 2, and TensorBoard shows each generation once (the cut one's scalars are purged)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    run = tmp_path / "tiny-seed0"
    assert main(tiny(tmp_path, generations=2)) == 0
    cut = sum(history(run)[2]["decisions"].values())
    for path in (run / "generations" / "2" / "trainer.json", run / "punter" / "model.zip",
                 run / "banker" / "model.zip"):
        path.unlink()
    assert main(["--config", str(run / "table_selfplay.yaml"), "--resume"]) == 0
    rows = history(run)
    assert [r["generation"] for r in rows] == [0, 1, 2]
    assert (run / "generations" / "2" / "trainer.json").is_file()
    events = EventAccumulator(str(run / "tensorboard"))
    events.Reload()
    steps = [e.step for e in events.Scalars("measure/punter_paired")]
    assert steps == [sum(r["decisions"].values()) for r in rows]
    assert cut not in steps[:2] and sum(rows[2]["decisions"].values()) == steps[2]

"""The bad inputs found from outside, on every command line: each refused with one ``error: ...`` line
naming the argument and what is allowed, exit status 2, no traceback (the table of ``test_cli.py``,
extended to ``play`` and ``train.selfplay``); and what was wrongly refused (a model path with ``/``
for ``play --opponents``) is accepted."""

from __future__ import annotations

import io
import re

import pytest
from test_cli import ROOT, main_of

from shoot_pontoon_env.cli import run


def play_main(argv: list[str], stdin: str = "") -> tuple[int, str]:
    """``python -m shoot_pontoon_env.play`` in this process: its exit status and what it printed."""
    from shoot_pontoon_env.play.terminal import Console, main

    console = Console(io.StringIO(stdin), io.StringIO())
    return main(argv, console), console.stdout.getvalue()


def selfplay_main(argv: list[str]) -> int:
    from train.selfplay import main

    return main(argv)


BAD = [
    ("train", ["--set", "batch_size=100"],
     r"batch_size = 100: expected a divisor of n_steps x n_envs = 1024 x 4 = 4096 \(the rollout size\), "
     r"e\.g\. \[512, 1024, 2048, 4096\]"),
    ("train", ["--set", "n_steps=64", "n_envs=3", "batch_size=128"],
     r"batch_size = 128: expected a divisor of n_steps x n_envs = 64 x 3 = 192"),
    ("train", ["--set", "run_name=../../x"], r"run_name = '\.\./\.\./x': expected a plain folder name"),
    ("train", ["--set", "run_name=a/b"], r"run_name = 'a/b': expected a plain folder name"),
    ("train", ["--set", "run_name=.."], r"run_name = '\.\.': expected a plain folder name"),
    ("train", ["--set", "run_name=a\\b"], r"run_name = 'a\\\\b': expected a plain folder name"),
    ("selfplay", ["--set", "run_name=../x"], r"run_name = '\.\./x': expected a plain folder name"),
    ("evaluate", ["--agents", "random", "random"],
     r"argument --agents: 'random' is given more than once: expected each agent once"),
    ("evaluate", ["--agents", "tips", "random", "tips"], r"argument --agents: 'tips' is given more than once"),
    ("play", ["--seed", str(2**70)], rf"--seed {2**70}: expected 0\.\.{2**63 - 1}"),
    ("play", ["--seed", "-1"], rf"--seed -1: expected 0\.\.{2**63 - 1}"),
    ("play", ["--chips", str(10**40)], rf"--chips {10**40}: expected 0\.\.1000000000 \(the package's CHIP_LIMIT\)"),
    ("play", ["--chips", "-5"], r"--chips -5: expected 0\.\.1000000000"),
    ("play", ["--opponents", "no/such/model.zip"], r"trained opponent 'no/such/model\.zip': no/such/model\.zip: "
                                                  r"no such model file"),
    ("play", ["--opponents", "tips/croupier"], r"--opponents 'croupier': expected a strategy"),
    ("play", ["--opponents", "tips/stand17/dealer"], r"--opponents 'tips/stand17/dealer': expected NAME or "
                                                    r"PUNTER/BANKER"),
    ("play", ["--opponents", "tips/"], r"--opponents 'tips/': expected NAME or PUNTER/BANKER"),
    ("play", ["--opponents", str(ROOT / "README.md")], r"--opponents '.*README\.md': expected a strategy"),
    ("play", ["--opponents", str(ROOT / "agents")], r"trained opponent '.*agents': .*agents: a folder without a "
                                                    r"model\.zip"),
    ("solver", ["--rules", "casino", "--banker-stands-on", "16"],
     r"argument --banker-stands-on: rules 'casino' have a dealer who draws by fixed rules; it applies only to a "
     r"free banker \(--rules shoot\)"),
    ("solver", ["--rules", "playtech", "--banker-stands-on", "17"], r"argument --banker-stands-on: rules 'playtech'"),
    ("solver", ["--shoot-points", "before_deal"],
     r"argument --shoot-points: applies only to the Shoot analysis: add --shoot-ratio R \(with --rules shoot\)"),
    ("solver", ["bank-value", "--shoot", "20", "--players", "4"],
     r"argument --players: the exact value is heads-up only .* add --monte-carlo SESSIONS"),
    ("solver", ["bank-value", "--shoot", "0"], r"argument --shoot: .*0"),
    ("solver", ["bank-value", "--shoot", "60", "--shoot-cap", "50"],
     r"argument --shoot: 60 chips is past the bank limit --shoot-cap 50"),
    ("solver", ["bank-value", "--shoot", "60", "--banker", "random"], r"argument --banker: 'random' plays at random"),
    ("solver", ["bank-value", "--shoot", "60", "--punter", "croupier"], r"argument --punter .croupier.: expected a strategy"),
    ("solver", ["bank-value", "--shoot", "60", "--shoot-points", "before_flop"], r"argument --shoot-points"),
    ("solver", ["table-exploitability", "--players", "1", "--punter", "tips", "--banker", "dealer"],
     r"argument --players: .*1"),
    ("solver", ["table-exploitability", "--punter", "zoo:shoot_banker", "--banker", "dealer"],
     r"argument --punter: 'zoo:shoot_banker' is a trained banker: give it as --banker"),
    ("solver", ["table-exploitability", "--punter", "tips", "--banker", "random"],
     r"argument --banker: 'random' plays at random"),
    ("solver", ["table-exploitability", "--punter", "tips", "--banker", "dealer", "--deals", "5"],
     r"argument --deals: .*5"),
    ("solver", ["table-exploitability", "--punter", "tips", "--banker", "dealer", "--candidate-punter", "croupier"],
     r"argument --candidate-punter .croupier.: expected a strategy"),
    ("solver", ["table-exploitability", "--banker", "dealer"], r"--punter"),
]


def run_cli(cli: str, argv: list[str], tmp_path) -> tuple[int, str]:
    if cli == "play":
        return play_main(argv)
    if cli == "selfplay":
        return selfplay_main([*argv, f"log_dir={tmp_path}"]), ""
    extra = ["--out", str(tmp_path)] if cli == "evaluate" else []
    extra += ["--set", f"log_dir={tmp_path}"] if cli == "train" else []
    return run(main_of(cli), [*argv, *extra]), ""


@pytest.mark.parametrize(("cli", "argv", "match"), BAD, ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_a_bad_input_is_one_line_naming_the_argument_and_exit_status_2(cli, argv, match, capsys, tmp_path):
    status, console = run_cli(cli, argv, tmp_path)
    out, err = capsys.readouterr()
    assert status == 2, (status, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert re.search(match, lines[0]), lines[0]
    assert "Traceback" not in err and not out and not console


def test_the_limits_themselves_are_accepted(capsys):
    status, out = play_main(["--seed", str(2**63 - 1), "--chips", "1000000000", "--deals", "1", "--seats", "2"])
    assert status == 0 and "seed 9223372036854775807" in out, capsys.readouterr().err
    from shoot_pontoon_env.solver.__main__ import main

    assert run(main, ["--rules", "shoot", "--banker-stands-on", "16", "--shoot-ratio", "1", "--shoot-points",
                      "before_deal", "--json"]) == 0
    assert '"banker": "StandOnBanker(stand_on=16)' in capsys.readouterr().out


@pytest.mark.parametrize("spec", [
    str(ROOT / "agents" / "zoo" / "shoot_banker"),  # a run folder (a path with /)
    str(ROOT / "agents" / "zoo" / "shoot_banker" / "model.zip"),
    "tips/" + str(ROOT / "agents" / "zoo" / "shoot_banker"),  # PUNTER/BANKER, the banker a path
    "zoo:shoot_punter/" + str(ROOT / "agents" / "zoo" / "shoot_banker" / "model.zip"),
], ids=["folder", "zip", "tips/folder", "zoo/zip"])
def test_play_opponents_takes_a_model_path_with_slashes(spec, capsys):
    status, out = play_main(["--seed", "0", "--deals", "1", "--opponents", spec], stdin="2\n0\ns\nt\ns\nt\ns\n")
    assert status == 0, capsys.readouterr().err
    assert "Settlement:" in out and "Final chips after 1 deal:" in out

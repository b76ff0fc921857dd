"""Every command line refuses a user's mistake with one line ``error: ...`` that names the option and
what it accepts, exit status 2 and no traceback (``--debug`` shows it); ``--help`` is fast (no torch)
and every option has help text; reports are strict JSON."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from shoot_pontoon_env.cli import run, strict_json
from tests.hang_guard import HANG_GUARD_S

ROOT = Path(__file__).resolve().parents[1]
CLIS = {
    "train": "train.__main__",
    "evaluate": "shoot_pontoon_env.evaluate.__main__",
    "benchmark": "shoot_pontoon_env.benchmark.__main__",
    "bench": "train.bench",
    "solver": "shoot_pontoon_env.solver.__main__",
    "simulate": "shoot_pontoon_env.simulate.__main__",
}


def main_of(cli: str):
    import importlib

    return importlib.import_module(CLIS[cli]).main


BAD = [
    ("train", ["--set", "eval_freq=-5"], r"eval_freq = -5: expected an int >= 0"),
    ("train", ["--set", "gamma=5"], r"gamma = 5: expected a number >= 0 and <= 1"),
    ("train", ["--set", "clip_range=-1"], r"clip_range = -1: expected a number above 0 and <= 1"),
    ("train", ["--set", "net_arch=abc"], r"net_arch = 'abc': expected a list of layer sizes"),
    ("train", ["--set", "learning_rate=.nan"], r"learning_rate = nan: expected a number above 0"),
    ("train", ["--set", "batch_size=1"], r"batch_size = 1: expected an int in 2\.\.4096"),
    ("train", ["--set", "n_env=2"], r"unknown config field\(s\) \['n_env'\]"),
    ("train", ["--set", "seed"], r"--set 'seed': expected key=value"),
    ("train", ["--set", "env_kwargs.num_players=99"], r"env_kwargs of ShootPontoon-Playtech-v0 .*num_players = 99"),
    ("train", ["--set", "env_id=Nope-v0"], r"env_id = 'Nope-v0': not a registered Gymnasium id"),
    ("train", ["--set", "opponents=[croupier]"], r"banker = 'croupier': expected a strategy name"),
    ("train", ["--config", "nosuch.yml"], r"argument --config: 'nosuch.yml': no such file"),
    ("train", ["--resume", "nosuch.zip"], r"argument --resume: 'nosuch.zip': no such file"),
    ("train", ["--frobnicate"], r"unrecognized arguments: --frobnicate"),
    ("evaluate", ["--hands", "0"], r"argument --hands: '0' is not an int in 1\.\.1000000000"),
    ("evaluate", ["--hands", "1.5"], r"argument --hands: '1\.5' is not an int"),
    ("evaluate", ["--agents", "random", "tips", "--reference", "nosuch"],
     r"argument --reference: 'nosuch' is not one of the agents \['random', 'tips'\]"),
    ("evaluate", ["--env-kwargs", "{bad"], r"argument --env-kwargs: '\{bad' is not JSON"),
    ("evaluate", ["--env-kwargs", "[2]"], r"argument --env-kwargs: '\[2\]' is not a JSON object"),
    ("evaluate", ["--env-kwargs", '{"num_players": 99}'], r"argument --env-kwargs: .*num_players = 99"),
    ("evaluate", ["--env-kwargs", '{"colour": "red"}'], r"argument --env-kwargs: .*colour"),
    ("evaluate", ["--env", "Nope-v0"], r"argument --env: 'Nope-v0' is not a registered Gymnasium id"),
    ("evaluate", ["--agents", "genius"], r"argument --agents: agent = 'genius': expected a strategy or player"),
    ("evaluate", ["--agents", "no_such_module:policy"], r"argument --agents: .*no module named 'no_such_module'"),
    ("benchmark", ["--policy", "basic", "--tasks", "nope"], r"argument --tasks: task 'nope': expected one of"),
    ("benchmark", ["--policy", "nope=basic"], r"argument --policy: 'nope=basic': task 'nope'"),
    ("bench", ["--algo", "sarsa"], r"argument --algo: invalid choice: 'sarsa'"),
    ("bench", ["--algo", "ppo", "--tasks", "nope"], r"argument --tasks: task 'nope': expected one of"),
    ("evaluate", ["--agents", "nosuch.zip"], r"argument --agents: nosuch\.zip: no such model file"),
    ("evaluate", ["--agents", "zoo:shoot_punter"],  # a model on the wrong env (the default Playtech one)
     r"argument --agents: .*its weights do not fit this env \(ShootPontoon-Playtech-v0: observation of 449 "
     r"values, 10 actions\); the model was trained on ShootPontoon-v0"),
    ("evaluate", ["--seed", "-3"], r"argument --seed: '-3' is not an int in 0\.\."),
    ("evaluate", ["--learning-curve", "nosuch.npz"], r"argument --learning-curve: 'nosuch\.npz': no such file"),
    ("evaluate", ["--out", "README.md/report"], r"argument --out: README\.md/report: expected a folder that can be"),
    ("train", ["--set", "log_dir=README.md"], r"log_dir = 'README\.md', .*cannot be made"),
    ("solver", ["--shoot-ratio", "-1"], r"argument --shoot-ratio: '-1' is not a finite number above 0 and <= 1000"),
    ("solver", ["--shoot-ratio", "nan"], r"argument --shoot-ratio: 'nan' is not a finite number"),
    ("solver", ["--banker-stands-on", "99"], r"argument --banker-stands-on: '99' is not an int in 12\.\.21"),
    ("solver", ["--decks", "0"], r"argument --decks: '0' is not an int in 1\.\.8"),
    ("solver", ["--rules", "nosuch"], r"argument --rules: invalid choice: 'nosuch'"),
    ("solver", ["--shoot-ratio", "1", "--shoot-points", "before_river"],
     r"argument --shoot-points: 'before_river' is not a comma-separated list of distinct betting points"),
    ("solver", ["--rules", "casino", "--shoot-ratio", "1"], r"argument --shoot-ratio: rules 'casino' have no Shoot"),
    ("simulate", ["--deals", "0"], r"argument --deals: '0' is not an int in 1\.\.100000000"),
    ("simulate", ["--players", "tips"], r"argument --players: 1 seats given, expected 2\.\.10"),
    ("simulate", ["--players", "tips", "croupier"], r"argument --players: invalid choice: 'croupier'"),
    ("simulate", ["--seed", "x"], r"argument --seed: 'x' is not an int"),
]


@pytest.mark.parametrize(("cli", "argv", "match"), BAD, ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_a_bad_option_is_one_line_naming_it_and_exit_status_2(cli, argv, match, capsys, tmp_path):
    import re

    extra = ["--out", str(tmp_path)] if cli == "evaluate" and "--out" not in argv else []
    status = run(main_of(cli), [*argv, *extra])
    out, err = capsys.readouterr()
    assert status == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert re.search(match, lines[0]), lines[0]
    assert "Traceback" not in err and not out


def test_the_checkouts_evaluate_is_the_librarys_command_with_its_agents(tmp_path):
    """``python -m evaluate`` (the front door) adds the checkout's agents (equilibrium) to the library's."""
    result = subprocess.run([sys.executable, "-m", "evaluate", "--agents", "genius", "--out", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert result.returncode == 2 and "expected one of ['random'" in result.stderr and "equilibrium" in result.stderr
    assert "usage: python -m evaluate" in subprocess.run([sys.executable, "-m", "evaluate", "--help"], cwd=ROOT,
                                                         capture_output=True, text=True, timeout=HANG_GUARD_S).stdout


@pytest.mark.parametrize("cli", sorted(CLIS))
def test_in_a_real_process_the_error_is_one_line_and_debug_shows_the_traceback(cli):
    module = CLIS[cli].removesuffix(".__main__")
    bad = {"train": ["--set", "gamma=5"], "evaluate": ["--hands", "0"], "solver": ["--decks", "9"],
           "simulate": ["--deals", "0"], "benchmark": ["--policy", "basic", "--tasks", "nope"],
           "bench": ["--algo", "sarsa"]}[cli]
    result = subprocess.run([sys.executable, "-m", module, *bad], cwd=ROOT, capture_output=True, text=True,
                            timeout=HANG_GUARD_S)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    debug = subprocess.run([sys.executable, "-m", module, *bad, "--debug"], cwd=ROOT, capture_output=True,
                           text=True, timeout=HANG_GUARD_S)
    assert debug.returncode != 0 and "Traceback (most recent call last)" in debug.stderr


@pytest.mark.parametrize("cli", sorted(CLIS))
def test_help_is_fast_imports_no_torch_and_every_option_has_help_text(cli):
    code = (
        "import sys\n"
        f"from {CLIS[cli]} import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit as exit:\n"
        "    assert exit.code == 0\n"
        "print('heavy:', sorted(m for m in ('torch', 'stable_baselines3', 'sb3_contrib', 'matplotlib')"
        " if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert result.returncode == 0, result.stderr
    assert "heavy: []" in result.stdout
    import importlib

    parser = importlib.import_module(CLIS[cli]).build_parser()
    for action in parser._actions:
        assert action.help and len(action.help) > 8, f"{cli} {action.option_strings} has no help text"


def test_strict_json_writes_null_for_nan_and_infinity():
    text = strict_json({"mean": math.nan, "values": [1.0, math.inf, -math.inf], "nested": {"x": math.nan}})
    assert json.loads(text) == {"mean": None, "values": [1.0, None, None], "nested": {"x": None}}


def test_the_evaluate_report_is_strict_json_and_progress_goes_to_stderr(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "evaluate", "--env", "ShootPontoon-v0", "--agents", "random", "--hands", "1",
         "--no-optimal", "--out", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "tournament" in result.stderr and "1/1" in result.stderr  # the progress bar

    def refuse(constant):
        raise AssertionError(f"bare {constant} in report.json")

    report = json.loads((tmp_path / "report.json").read_text(), parse_constant=refuse)
    assert report["agents"][0]["hands"] == 1


def test_the_solver_json_is_strict(capsys):
    status = run(main_of("solver"), ["--rules", "playtech", "--decks", "1", "--json"])
    assert status == 0
    out = capsys.readouterr().out
    json.loads(out, parse_constant=lambda c: (_ for _ in ()).throw(AssertionError(c)))

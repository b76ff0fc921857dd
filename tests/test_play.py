"""``python -m shoot_pontoon_env.play`` driven through stdin, as a person at the terminal would use it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def play(*args: str, stdin: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "shoot_pontoon_env.play", *args], input=stdin, text=True,
                          capture_output=True, cwd=cwd, timeout=120)


def test_a_deal_with_wrong_input_refused_and_asked_again_then_end_of_input():
    # Seed 3, three seats: you (seat 1) are dealt KD 7C; the banker busts with 9D 6H 7S.
    answers = ["abc", "999", "2",        # stake: not a number, out of range, then 2
               "-1", "0",                 # Shoot bet: out of range, then none
               "z", "s 3",               # a wrong key, stick with an amount
               "b 1", "x", "", "s"]      # a buy of 1 chip (2..4 allowed), not a number, back, stick
    result = play("--seed", "3", "--seats", "3", stdin="\n".join(answers) + "\n")
    out = result.stdout
    assert result.returncode == 0 and result.stderr == "" and "Traceback" not in out
    assert "'abc' is not a number of chips: type a whole number, 2..10" in out
    assert "999 is not allowed here: the amount must be 2..10" in out
    assert "-1 is not allowed here: the amount must be 0..50" in out
    assert "'z' is not a legal move here: type one of s, t, b" in out
    assert "stick takes no amount" in out
    assert "1 is not allowed here: the amount must be 2..4" in out  # "b 1": a buy of 1 chip
    assert "KD 7C (17), stake 2   <- your decision" in out
    assert "BANKER: ?? ??" in out  # the banker's cards are face down while you decide
    assert "Settlement: the banker (seat 0) has 9D 6H 7S = bust (22)" in out
    assert "you: KD 7C = 17 against bust (22): wins 2" in out
    assert re.search(r"seat 1 you\s+1002\s+net \+2", out)
    assert out.rstrip().endswith("net +4") and "You leave the table." in out  # end of input: a clean exit


def test_q_leaves_at_once():
    result = play("--seed", "1", stdin="q\n")
    assert result.returncode == 0 and "You leave the table." in result.stdout and "Traceback" not in result.stdout


def chip_blocks(out: str, seats: int) -> list[list[tuple[str, int, int]]]:
    """Every running chip count: (name, chips, net) per seat."""
    rows = re.findall(r"seat \d (\S+)\s+(-?\d+)(?: \(banker(?:, with the Shoot)?\))?\s+net ([+-]\d+)", out)
    return [[(n, int(c), int(d)) for n, c, d in rows[i:i + seats]] for i in range(0, len(rows), seats)]


def test_many_deals_keep_a_running_count_and_the_bank_passes():
    # A player who answers from a fixed cycle: a stake of 2, no Shoot bet, stick, twist, keep the bank;
    # answers that do not fit the question are refused and the next one is tried.
    answers = ["2", "0", "s", "t", "k", ""] * 400
    result = play("--seed", "7", "--seats", "3", "--deals", "40", "--opponents", "random", "tips",
                  stdin="\n".join(answers) + "\n")
    out = result.stdout
    assert result.returncode == 0 and "Traceback" not in out, result.stderr
    blocks = chip_blocks(out, 3)
    assert len(blocks) == 41  # after each of 40 deals, and the final count
    for block in blocks:
        assert sum(net for _, _, net in block) == 0  # chips are never created or lost
        assert sum(chips for _, chips, _ in block) == 3000
    assert "the Shoot is empty: the bank passes" in out or "sells the bank" in out
    assert "you (seat 1) are the banker" in out  # the bank reached you and you banked
    assert "Final chips after 40 deal(s)" in out


BETTING = '{"preset": "shoot", "shoot_bet_points": ["before_second_card", "before_fourth_card"], "max_shoot_bet": 2}'
"""The rules of zoo:shoot_punter_betting, as its refusal at another table spells them for --rules."""


@pytest.mark.parametrize("args, message", [
    (["--seats", "11"], "error: --seats 11: expected 2..10"),
    (["--seats", "x"], "error: argument --seats: invalid int value: 'x'"),
    (["--rules", "bridge"], "error: --rules 'bridge': expected one of ['casino', 'playtech', 'shoot'] or a JSON"),
    (["--rules", "{bad"], "error: --rules '{bad': not JSON"),
    (["--rules", '{"preset": "shoot", "max_shoot_bet": -1}'], "error: --rules '{\"preset\": \"shoot\", "
                                                               "\"max_shoot_bet\": -1}': Rules.max_shoot_bet = -1 is not allowed"),
    (["--rules", '{"preset": "poker"}'], "error: --rules '{\"preset\": \"poker\"}': rules spec"),
    (["--opponents", "zoo:shoot_punter_betting"], "error: trained opponent 'zoo:shoot_punter_betting' was trained "
                                                  "under the rules 'shoot-custom', not 'shoot': choose --rules '" + BETTING
                                                  + "'"),
    (["--seat", "4"], "error: --seat 4: expected 0..3 at a table of 4"),
    (["--opponents", "nobody"], "error: --opponents 'nobody': expected a strategy"),
    (["--opponents", "tips", "tips"], "error: --opponents: expected 1 or 3 specs, got 2"),
    (["--deals", "0"], "error: --deals 0: expected at least 1"),
    (["--bogus"], "error: unrecognized arguments: --bogus"),
    (["--opponents", "zoo:nothing"], "error: trained opponent 'zoo:nothing': no trained model 'nothing'"),
    (["--opponents", "zoo:playtech_punter"], "error: trained opponent 'zoo:playtech_punter' was trained under "
                                             "the rules 'playtech', not 'shoot': choose --rules playtech\n"),
    (["--seats", "3", "--opponents", "zoo:shoot_banker"], "error: trained opponent 'zoo:shoot_banker' reads "
                                                          "observations of shape (554,) (a table of 4 seats); a table of 3 seats gives (414,)"),
])
def test_a_command_line_mistake_is_one_error_line_and_exit_2(args, message):
    result = play(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(message), result.stderr


def test_trained_opponents_from_a_checkout():
    result = play("--seed", "0", "--deals", "1", "--opponents", "zoo:shoot_punter/zoo:shoot_banker",
                  stdin="2\n0\ns\nt\ns\nt\ns\n")
    assert result.returncode == 0, result.stderr
    assert "seat 0 zoo:shoot_punter/zoo:shoot_banker" in result.stdout and "Settlement:" in result.stdout


def test_a_table_of_changed_rules_from_json_with_the_model_trained_there():
    answers = "2\n" + "0\nt\ns\n" * 8  # stake 2; then no Shoot bet, twist or stick, whichever is asked
    result = play("--seed", "0", "--deals", "1", "--rules", BETTING, "--opponents", "zoo:shoot_punter_betting",
                  stdin=answers)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Pontoon (shoot-custom)") and "Shoot bet before second card (0..2 chips" in out
    assert "Settlement:" in out and "Final chips after 1 deal(s)" in out


def test_outside_a_checkout_rule_based_play_works_and_trained_opponents_are_refused(tmp_path):
    result = play("--seed", "0", "--deals", "1", stdin="2\n0\ns\nt\ns\nt\ns\n", cwd=tmp_path)
    assert result.returncode == 0 and "Settlement:" in result.stdout, result.stderr
    result = play("--opponents", "zoo:shoot_punter", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.startswith(
        "error: trained opponent 'zoo:shoot_punter' needs a checkout of the repository")


def test_outside_a_checkout_a_model_file_plays(tmp_path):
    """The installed package reads a model itself (``shoot_pontoon_env.models``): no ``agents/`` needed,
    which cannot be imported from here."""
    model = ROOT / "agents" / "zoo" / "shoot_banker" / "model.zip"
    check = subprocess.run([sys.executable, "-c", "import agents"], cwd=tmp_path, capture_output=True)
    assert check.returncode != 0  # not a checkout: agents/ is not importable here
    result = play("--seed", "0", "--deals", "1", "--opponents", str(model), stdin="2\n0\ns\nt\ns\nt\ns\n",
                  cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"seat 0 {model}" in result.stdout and "Settlement:" in result.stdout


def test_the_installed_loader_fills_a_run_config_with_the_defaults_of_train():
    """A ``config.yaml`` that leaves fields out is read with what ``python -m train`` would have used;
    the installed loader cannot import ``train/``, so it holds those defaults itself."""
    import dataclasses

    from shoot_pontoon_env.models.safe_load import TRAIN_DEFAULTS
    from train.config import TrainConfig

    defaults = {f.name: f.default if f.default is not dataclasses.MISSING else f.default_factory()
                for f in dataclasses.fields(TrainConfig)}
    assert TRAIN_DEFAULTS == {name: defaults[name] for name in TRAIN_DEFAULTS}

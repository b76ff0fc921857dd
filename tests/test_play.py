"""``python -m shoot_pontoon_env.play`` driven through stdin, as a person at the terminal would use it."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from shoot_pontoon_env.engine.table import Table
from shoot_pontoon_env.play.terminal import Console, dealer_rule, legend, main
from shoot_pontoon_env.rules import PLAYTECH, SHOOT

ROOT = Path(__file__).resolve().parents[1]
CARDS_LEGEND = "Cards: [8D] is one of yours lying face down (only you see it), ?? one you cannot see."
"""The legend's second line, after the keys."""


def play(*args: str, stdin: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "shoot_pontoon_env.play", *args], input=stdin, text=True,
                          capture_output=True, cwd=cwd, timeout=1200)  # far above its quiet time (seconds)


def play_here(argv: list[str], answers: list[str]) -> tuple[int, str]:
    """``play`` in this process, answering ``answers``, and what the terminal would show."""
    console = Console(io.StringIO("".join(a + "\n" for a in answers)), io.StringIO())
    return main(argv, console), console.stdout.getvalue()


def stacked_play(monkeypatch, argv: list[str], answers: list[str], *deals: str) -> tuple[int, str]:
    """``play_here`` with each deal dealt from the top of a stacked shoe (``Table.start_deal``'s
    ``stacked``: the first card of every hand in dealing order, the banker's, then the second cards,
    then the draws)."""
    stacks = list(deals)
    start_deal = Table.start_deal
    monkeypatch.setattr(Table, "start_deal", lambda table: start_deal(table, stacks.pop(0) if stacks else None))
    return play_here(argv, answers)


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
    assert "hand 0: [KD] [7C] (17), stake 2   <- your decision" in out  # dealt face down: marked
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
    assert "Final chips after 40 deals:" in out


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
    (["--opponents", "thresholdx"], "error: --opponents 'thresholdx': expected a strategy or player by name "
                                    "(dealer, random, shoot_aware, stand17, threshold, tips, thresholdN, or a solver "
                                    "player ['optimal', 'basic']), a trained model (zoo:NAME from a checkout, a "
                                    "model .zip or a run folder), PUNTER/BANKER"),
    (["--opponents", "equilibrium"], "error: --opponents 'equilibrium': the heads-up equilibrium plays only its "
                                     "reduced game"),
    (["--opponents", "tips", "tips"], "error: --opponents: expected 1 or 3 specs, got 2"),
    (["--deals", "0"], "error: --deals 0: expected at least 1"),
    (["--bogus"], "error: unrecognized arguments: --bogus"),
    (["--opponents", "zoo:nothing"], "error: trained opponent 'zoo:nothing': no trained model 'nothing'"),
    (["--opponents", "zoo:playtech_punter"], "error: trained opponent 'zoo:playtech_punter' was trained under "
                                             "the rules 'playtech', not 'shoot': choose --rules playtech\n"),
    (["--opponents", "zoo:shoot_banker/zoo:shoot_punter"], "error: --opponents 'zoo:shoot_banker/zoo:shoot_punter': "
     "'zoo:shoot_banker' is a model of the banker's role, given as the punter: PUNTER/BANKER names the punter first\n"),
    (["--opponents", "tips/zoo:shoot_punter"], "error: --opponents 'tips/zoo:shoot_punter': 'zoo:shoot_punter' is a "
                                               "model of the punter's role, given as the banker"),
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
    assert "Settlement:" in out and "Final chips after 1 deal:" in out


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


# A playtech or casino deal, 3 seats: you (seat 1) AS 5H, twist 4C and stick on a soft 20; seat 2 (tips)
# KD 8S sticks; the dealer 9C 7D draws 2S and stands on 18.
CASINO_DEAL = "AS KD 9C 5H 8S 7D 4C 2S"


@pytest.mark.parametrize("preset, answers, dealer_shows", [
    ("playtech", ["2", "t", "s"], "?? ??"),              # both dealer cards face down
    ("casino", ["2", "0", "t", "s"], "9C ?? (shows 9)"),  # a second box declined; the first card shown
])
def test_a_casino_table_shows_its_dealer_and_offers_only_the_keys_its_rules_have(monkeypatch, preset, answers,
                                                                                  dealer_shows):
    status, out = stacked_play(monkeypatch, ["--rules", preset, "--seed", "0", "--deals", "1", "--seats", "3"],
                               answers, CASINO_DEAL)
    assert status == 0
    assert out.startswith(f"Pontoon ({preset}), 3 seats, seed 0. You are seat 1; the others: seat 0 the dealer "
                          "(hits soft 17, stands on hard 17), seat 2 tips.\n"
                          "Keys: s stick, t twist, b buy, p split; stakes are typed as numbers of chips; "
                          f"q leaves.\n{CARDS_LEGEND}\n")
    assert "=== Deal 1: seat 0 is the dealer; you (seat 1) are a punter ===" in out
    assert f"  seat 0 dealer       chips   1000  DEALER: {dealer_shows}\n  seat 1 you" in out
    for absent in ("keep", "sell", "Shoot bet", "banker", "BANKER", "seat 0 tips"):  # no bank sale, no Shoot
        assert absent not in out, absent
    assert "[s] stick  [t] twist  [b] buy 2 chips  [q] quit" in out
    assert "      hand 0: [AS] [5H] (soft 16), stake 2   <- your decision" in out  # the ace counts 11: soft
    assert "  . seat 1 hand 0 twists\n  . seat 1 hand 0 gets 4C face up\n" in out
    assert "      hand 0: [AS] [5H] 4C (soft 20), stake 2   <- your decision" in out  # a twist: face up
    assert "  . seat 1 hand 0 sticks\n  . seat 2 hand 1 sticks\n" in out
    assert "  . seat 2 hand 1 loses 1\n  . seat 1 hand 0 wins 2\n" in out
    assert "Settlement: the dealer (seat 0) has 9C 7D 2S = 18\n  you: AS 5H 4C = 20 against 18: wins 2\n" in out
    assert re.search(r"seat 0 dealer\s+999 \(dealer\)  net -1", out)


def test_play_rules_playtech_opponents_threshold15_as_the_user_typed_it():
    result = play("--rules", "playtech", "--opponents", "threshold15", "--seed", "0", "--deals", "1",
                  stdin="\n".join(["2", "s", "t"] * 6) + "\n")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert result.stdout.startswith("Pontoon (playtech), 4 seats, seed 0. You are seat 1; the others: seat 0 the "
                                    "dealer (hits soft 17, stands on hard 17), seat 2 threshold15, seat 3 threshold15.\n")
    assert "Settlement: the dealer (seat 0) has" in result.stdout


def test_every_agent_name_that_evaluate_accepts_sits_at_the_table():
    """``python -m evaluate --agents`` takes the names of ``agents.agent_names``; ``play --opponents`` seats
    each (thresholdN as threshold15; the zoo's models go by their model path, tested above), except the
    equilibrium, bound to its reduced game, which is refused in one line that says so (tested above)."""
    from agents import agent_names

    names = [name.replace("thresholdN", "threshold15") for name in agent_names() if not name.startswith("zoo:")]
    assert {"threshold15", "optimal", "basic", "equilibrium"} <= set(names)
    for name in (n for n in names if n != "equilibrium"):
        status, out = play_here(["--seed", "0", "--deals", "1", "--seats", "2", "--opponents", name],
                                ["2", "0", "s", "t", "k", ""] * 10)  # each tried until one fits
        assert status == 0, name
        assert f"You are seat 1; the others: seat 0 {name}.\n" in out and "Settlement:" in out, name


@pytest.mark.parametrize("punter", ["threshold15", "basic"])
def test_a_player_by_name_punts_beside_a_trained_banker_given_by_its_path(punter):
    """PUNTER/BANKER where the banker's path holds ``/`` too: split after the name."""
    spec = f"{punter}/{ROOT / 'agents' / 'zoo' / 'shoot_banker' / 'model.zip'}"
    status, out = play_here(["--seed", "0", "--deals", "1", "--opponents", spec], ["2", "0", "s", "t", "k", ""] * 10)
    assert status == 0 and f"seat 0 {spec}, seat 2 {spec}, seat 3 {spec}." in out and "Settlement:" in out


# The home game, 2 seats, you the banker (seat 0): seat 1 (tips) TD 7S sticks; you stick on 9C 8D and
# win the tie. Then you keep or sell the bank.
SHOOT_DEAL = "TD 9C 7S 8D"


@pytest.mark.parametrize("rules, offer, sale, chips", [
    ("shoot", "for 0 chips, taking back the Shoot of 50 (50 chips in all)",
     "for 0 chips; seat 0 takes back the Shoot of 50: 50 chips in all", r"you\s+1002  net \+2"),
    ('{"preset": "shoot", "bank_sale_price": 5}', "for 5 chips, taking back the Shoot of 50 (55 chips in all)",
     "for 5 chips; seat 0 takes back the Shoot of 50: 55 chips in all", r"you\s+1007  net \+7"),
    ('{"preset": "shoot", "reserved_shoot_percent": 10}',
     "for 0 chips, taking back the Shoot of 45 and the reserve of 5 (50 chips in all)",
     "for 0 chips; seat 0 takes back the Shoot of 45 and the reserve of 5: 50 chips in all", r"you\s+1002  net \+2"),
])
def test_selling_the_bank_shows_its_price_before_and_all_the_seller_gets_after(monkeypatch, rules, offer, sale, chips):
    """The price is the rules' ``bank_sale_price`` (0 in the preset, "by agreement" in the seed): what the
    seller gets is that and the Shoot and reserve taken back, which the old log left out ("for 0")."""
    status, out = stacked_play(monkeypatch, ["--rules", rules, "--seed", "0", "--deals", "1", "--seats", "2",
                                             "--seat", "0"], ["s", "x"], SHOOT_DEAL)
    assert status == 0
    assert ("Keys: s stick, t twist, b buy, p split, k keep the bank, x sell the bank; stakes and Shoot bets are "
            "typed as numbers of chips; q leaves.\n") in out
    assert "  seat 0 you          chips    9" in out and "  BANKER: 9C 8D (17)\n" in out
    assert f"[k] keep the bank  [x] sell the bank to seat 1 {offer}  [q] quit\nYour move: x\n" in out
    assert f"  . seat 0 sells the bank\n  . seat 1 buys the bank {sale}\n  . seat 1 posts a Shoot of 50\n" in out
    assert re.search(chips, out) and "sell_bank" not in out


def test_the_log_names_the_moves_in_words(monkeypatch):
    status, out = stacked_play(monkeypatch, ["--seed", "0", "--deals", "1", "--seats", "2", "--seat", "0"],
                               ["s", "k"], SHOOT_DEAL)
    assert status == 0
    assert "  . seat 1 hand 0 sticks\n" in out and "  . seat 0 sticks\n" in out
    assert "  . seat 1 hand 0 loses 2\n" in out and "  . seat 0 keeps the bank\n" in out
    assert "keep_bank" not in out and ": stick" not in out and ": lose -2" not in out  # the engine's identifiers


@pytest.mark.parametrize("argv, first_line", [
    (["--rules", '{"preset": "shoot", "banker_play": "dealer"}'],
     "Pontoon (shoot-custom), 4 seats, seed 0. You are seat 1; the others: seat 0 tips, seat 2 tips, seat 3 tips. "
     "Whoever holds the bank draws by the dealer's rule: hits soft 17, stands on hard 17."),
    (["--rules", "playtech", "--seat", "0", "--seats", "3"],
     "Pontoon (playtech), 3 seats, seed 0. You are seat 0, the dealer (hits soft 17, stands on hard 17): you draw "
     "by the rule and decide nothing; the others: seat 1 tips, seat 2 tips."),
])
def test_who_draws_by_the_dealers_rule_is_said_at_the_start(argv, first_line):
    status, out = play_here([*argv, "--seed", "0"], [])
    assert status == 0 and out.split("\n")[0] == first_line


@pytest.mark.parametrize("rules, keys", [
    (SHOOT.replace(bank_sale=False, double_stakes=True),
     "Keys: s stick, t twist, b buy, p split, d double stakes; stakes and Shoot bets are typed as numbers of chips"),
    (SHOOT.replace(max_buys=0, max_split_hands=1, shoot_bet_points=()),
     "Keys: s stick, t twist, k keep the bank, x sell the bank; stakes are typed as numbers of chips"),
])
def test_the_legend_has_the_moves_and_amounts_of_the_rules(rules, keys):
    assert legend(rules) == f"{keys}; q leaves.\n{CARDS_LEGEND}"


def test_the_dealers_rule_in_words():
    assert dealer_rule(PLAYTECH) == "hits soft 17, stands on hard 17"
    assert dealer_rule(PLAYTECH.replace(dealer_hits_soft_17=False)) == "stands on 17"
    assert dealer_rule(PLAYTECH.replace(dealer_stands_on=18)) == "stands on 18"


# Three seats, you (seat 1) are dealt 8D 5C (13); seat 2 (tips) 9C 8S; the banker TS 7D; then 2C, 4H, KD.
THIRTEEN = "8D 9C TS 5C 8S 7D 2C 4H KD"


@pytest.mark.parametrize("rules, minimum", [("shoot", 15), ('{"preset": "shoot", "stick_minimum": 16}', 16)])
def test_typing_s_below_the_stick_minimum_says_the_minimum(monkeypatch, rules, minimum):
    status, out = stacked_play(monkeypatch, ["--rules", rules, "--seed", "0", "--deals", "1", "--seats", "3"],
                               ["2", "0", "s", "t", "s", "t", "s"], THIRTEEN)
    assert status == 0
    assert "      hand 0: [8D] [5C] (13), stake 2   <- your decision\n" in out
    assert ("[t] twist  [b] buy 2..4 chips  [q] quit\nYour move: s\n  you may not stick on 13: a hand sticks "
            f"only on {minimum} or more (the stick minimum of these rules): type one of t, b (q quits)\n"
            ) in out
    assert "  . seat 1 hand 0 twists\n  . seat 1 hand 0 gets 2C face up\n" in out


def test_a_buy_of_a_single_amount_is_made_by_its_key_alone(monkeypatch):
    """Playtech's buy is a casino double, one amount: ``b`` buys it (the menu says the amount), and
    no "Buy for how many chips (2..2)" is asked."""
    argv = ["--rules", "playtech", "--seed", "0", "--deals", "1", "--seats", "3"]
    status, out = stacked_play(monkeypatch, argv, ["2", "b", "s"], CASINO_DEAL)
    assert status == 0
    assert ("[s] stick  [t] twist  [b] buy 2 chips  [q] quit\nYour move: b\n"
            "  . seat 1 hand 0 buys a card for 2 chips\n") in out
    assert "Buy for how many" not in out and "2..2" not in out


# Three seats, you (seat 1) 8D 8H, split: hand 0a draws 5C (13), twists 2C (15) and sticks; hand 0b draws 4C
# (12) and twists KH (bust); seat 2 (tips) stands on 9C 8S; the banker TS 3D.
SPLIT_DEAL = "8D 9C TS 8H 8S 3D 5C 2C 4C KH"


def test_a_split_hand_goes_on_as_a_and_b_and_the_other_hands_keep_their_numbers(monkeypatch):
    status, out = stacked_play(monkeypatch, ["--seed", "0", "--deals", "1", "--seats", "3"],
                               ["2", "0", "p", "t", "s", "t"], SPLIT_DEAL)
    assert status == 0
    assert ("  . seat 1 hand 0 splits\n  . seat 1 hand 0b stakes 2 (split)\n"
            "  . seat 1 hand 0a gets 5C face down\n") in out
    assert ("      hand 0a: [8D] [5C] (13), stake 2   <- your decision\n"
            "      hand 0b: [8H] (8), stake 2\n") in out
    assert "      hand 1: ?? ??, stake 2\n" in out  # seat 2's hand, index 2 at the Table after the split
    assert ("  . seat 1 hand 0b gets KH face up\n  . seat 1 hand 0b shows 8H\n"
            "  . seat 1 hand 0b shows 4C\n") in out
    assert "  . seat 2 hand 1 sticks\n" in out and "you (hand 0b): 8H 4C KH = bust: loses 2" in out
    assert "hand 2" not in out


def test_quitting_before_the_first_deal_is_played_says_no_deal_was_played(monkeypatch):
    status, out = play_here(["--seed", "0"], ["q"])
    assert status == 0 and "after 1 deal" not in out
    assert ("Final chips before any deal was played (the first deal left unfinished: its stakes counted as "
            "their owners'):\n") in out
    answers = ["2", "0", "t", "s", "q"]  # play the first deal, then leave at "Press Enter"
    status, out = stacked_play(monkeypatch, ["--seed", "0", "--seats", "3"], answers, THIRTEEN)
    assert status == 0 and "Press Enter for the next deal (q to leave): q\nYou leave the table.\n" in out
    assert "Final chips after 1 deal:\n" in out


def test_long_names_are_cut_to_keep_the_columns():
    spec = "shoot_aware/stand17"  # one player per role: the seat's name is the whole spec
    answers = ["2", "0", "s", "t", "s", "t", "s"]
    status, out = play_here(["--seed", "0", "--deals", "1", "--opponents", spec], answers)
    assert status == 0 and f"seat 0 {spec}, seat 2 {spec}, seat 3 {spec}." in out  # the whole name, once
    table = [line for line in out.splitlines() if re.match(r"  seat \d .* chips ", line)]
    counts = [line for line in out.splitlines() if re.match(r"  seat \d .* net [+-]", line)]
    assert table and counts and "shoot_awar.. chips" in out
    assert len({line.index(" chips ") for line in table}) == 1  # every chips column at one place
    assert all(re.match(r"  seat \d .{12} [ \d-]{5}\d( \(|  net)", line) for line in counts), counts

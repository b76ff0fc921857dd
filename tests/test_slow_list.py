"""tests/slow.txt names tests that exist: its file, its function, and a note saying what stays in CI."""

import re
import subprocess
import sys
from pathlib import Path

from conftest import slow_list

ROOT = Path(__file__).resolve().parents[1]


def test_every_listed_test_exists_and_says_what_keeps_its_path():
    listed = slow_list()
    assert len(listed) >= 40
    for test_id, note in listed.items():
        path, _, name = test_id.partition("::")
        function = name.partition("[")[0]
        assert (ROOT / path).is_file(), f"{test_id}: no file {path}"
        assert re.search(rf"^def {function}\(", (ROOT / path).read_text(), re.M), f"{test_id}: no {function}"
        assert re.match(r"\d+ s; \S", note), f"{test_id}: the note should give its seconds and its CI stand-in"


def test_the_listed_tests_are_marked_slow_and_left_out_of_ci():
    """Collected alone, one file's listed tests are exactly its `-m slow` ones (with no other mark in it)."""
    module = "tests/solver/test_bank_value.py"
    assert "mark.slow" not in (ROOT / module).read_text()
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist", "-m", "slow", module]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-2000:]
    collected = {line for line in result.stdout.splitlines() if line.startswith(module + "::")}
    assert collected == {test_id for test_id in slow_list() if test_id.startswith(module + "::")}
    assert len(collected) == 2

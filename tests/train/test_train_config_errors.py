"""``python -m train``'s configuration refuses, in one line, what no run could use."""

from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib")

from shoot_pontoon_env.cli import run  # noqa: E402
from train.__main__ import main  # noqa: E402
from train.config import load_config  # noqa: E402


@pytest.mark.parametrize("value", ["[]", "[0]", "[64, true]"])
def test_a_net_arch_no_policy_can_have_is_one_line(capsys, value):
    """``[]`` would train a linear policy that the project's model loader refuses to rebuild."""
    assert run(main, ["--set", f"net_arch={value}"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: net_arch = "), err
    assert "list of layer sizes (at least one" in err[0], err


def test_a_net_arch_of_layers_is_taken():
    assert load_config(None, ["net_arch=[8]"]).net_arch == [8]

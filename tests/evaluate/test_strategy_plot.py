"""``strategy.png`` (``shoot_pontoon_env/evaluate/plots.py``): labelled axes, text of 9 pt or more, and no panel for a
uniformly random agent (whose most frequent action per cell is one draw of noise)."""

import gymnasium as gym
import matplotlib.pyplot as plt
import numpy as np

import shoot_pontoon_env.envs  # noqa: F401
from agents import make_agent
from shoot_pontoon_env.evaluate.plots import CELL_FONT, strategy_figure, strategy_heatmaps
from shoot_pontoon_env.evaluate.tournament import run_tournament


def make_env():
    return gym.make("ShootPontoon-v0", engine="table")


def test_the_strategy_heatmaps_are_labelled_readable_and_leave_out_the_random_agent(tmp_path):
    env = make_env()
    records = run_tournament(make_env, [make_agent(n, env) for n in ("random", "tips", "basic")], hands=150,
                             seed=0, batched=False)
    fig = strategy_figure(records)
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in shown] == ["tips: hard hands", "basic: hard hands", "tips: soft hands",
                                                 "basic: soft hands"]
    for ax in shown:
        assert ax.get_xlabel() == "cards held" and ax.get_ylabel() in ("hard total", "soft total")
        texts = [*ax.texts, ax.title, ax.xaxis.label, ax.yaxis.label, *ax.get_xticklabels(),
                 *ax.get_yticklabels()]
        assert texts and min(t.get_fontsize() for t in texts) >= 9
        assert len(ax.texts) > 5 and all(t.get_fontsize() == CELL_FONT for t in ax.texts)
    title = fig.get_suptitle().replace("\n", " ")
    assert "not drawn: random (uniform among the legal actions)" in title
    assert fig._suptitle.get_fontsize() >= 9
    plt.close(fig)
    path = strategy_heatmaps(records, tmp_path / "strategy.png")
    assert path.read_bytes()[:4] == b"\x89PNG"
    image = plt.imread(path)
    assert image.shape[1] > image.shape[0] * 0.5 and np.isfinite(image).all()

from shoot_pontoon_env.rules import PRESETS
from shoot_pontoon_env.players.session import run_session


def test_every_preset_plays_a_session_conserving_chips():
    for name in PRESETS:
        banker = "dealer" if PRESETS[name].banker_play == "dealer" else "shoot_aware"
        result = run_session(name, [banker, "tips", "threshold", "random"], deals=200, seed=1)
        assert sum(result.net) == 0
        assert result.deals == 200

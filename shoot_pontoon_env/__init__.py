"""shoot-pontoon-env: British Shoot Pontoon (and two casino Pontoon rule sets) for reinforcement learning."""

from .actions import Action, ActionKind, IllegalActionError, LegalMove
from .engine import Phase, Table
from .rules import CASINO, PLAYTECH, PRESETS, SHOOT, Rules, RulesError, get_rules, rules_from_spec

__version__ = "0.9.2"

__all__ = [
    "CASINO", "PLAYTECH", "PRESETS", "SHOOT", "Action", "ActionKind", "IllegalActionError",
    "LegalMove", "Phase", "Rules", "RulesError", "Table", "get_rules", "rules_from_spec", "__version__",
]

# Register the Gymnasium ids on import, so that gym.make("shoot_pontoon_env:ShootPontoon-v0") works in a
# fresh interpreter (Gymnasium 1.x loads no plugins by itself; the module prefix imports this package).
from .envs.registration import register_envs  # noqa: E402

register_envs()

"""shoot-pontoon-env: British Shoot Pontoon (and two casino Pontoon rule sets) for reinforcement learning."""

from .actions import Action, ActionKind, IllegalActionError, LegalMove
from .engine import Phase, Table
from .rules import CASINO, PLAYTECH, PRESETS, SHOOT, Rules, RulesError, get_rules

__version__ = "0.1.0"

__all__ = [
    "CASINO", "PLAYTECH", "PRESETS", "SHOOT", "Action", "ActionKind", "IllegalActionError",
    "LegalMove", "Phase", "Rules", "RulesError", "Table", "get_rules", "__version__",
]

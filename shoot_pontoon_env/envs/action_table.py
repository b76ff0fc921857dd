"""The action tables, where users import them (they live in ``seat/action_table.py``, below both engines)."""

from ..seat.action_table import *  # noqa: F403
from ..seat.action_table import ActionEntry, ActionTable, banker_action_table, punter_action_table  # noqa: F401

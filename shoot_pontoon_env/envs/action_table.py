"""The action tables, where users import them (they live in ``seat/action_table.py``, below both engines)."""

from ..seat.action_table import *  # noqa: F403

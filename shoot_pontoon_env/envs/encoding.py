"""The observation encoding, where users import it (it lives in ``seat/encoding.py``, below both engines)."""

from ..seat.encoding import *  # noqa: F403

"""The observation encoding, where users import it (it lives in ``seat/encoding.py``, below both engines)."""

from ..seat.encoding import *  # noqa: F403
from ..seat.encoding import decode_banker_seat, decode_view, observation_bounds, observation_size  # noqa: F401

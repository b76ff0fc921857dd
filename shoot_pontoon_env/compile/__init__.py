"""``python -m shoot_pontoon_env.compile``: every part of the batched engine into numba's cache (``__main__.py``)."""

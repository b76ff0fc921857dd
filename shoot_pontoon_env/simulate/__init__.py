"""``python -m shoot_pontoon_env.simulate``: a session of rule-based players (``__main__.py``)."""

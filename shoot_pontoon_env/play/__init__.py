"""``python -m shoot_pontoon_env.play``: a person at a table in the terminal (``terminal.py``)."""

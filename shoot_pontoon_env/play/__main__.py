"""``python -m shoot_pontoon_env.play``: terminal play (``play/terminal.py``)."""

from .terminal import main

if __name__ == "__main__":
    raise SystemExit(main())

"""What every command line of the project shares: a user's mistake is one line ``error: ...`` naming
the option and what it accepts, exit status 2, no traceback (``--debug`` shows it); option types
that check ranges; and reports written as strict JSON.

Used by ``python -m train``, ``python -m evaluate``, ``python -m shoot_pontoon_env.solver`` and
``python -m shoot_pontoon_env.simulate``. Imports nothing heavy, so ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

USAGE_ERROR = 2
"""Exit status of a user's mistake (argparse's own)."""


class UsageError(Exception):
    """A mistake in what the user asked for: printed as ``error: <message>``, exit status 2."""


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows an option's default, unless it is None or False or the help text already says it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if action.default in (None, False, argparse.SUPPRESS) or "default" in text:
            return text
        return super()._get_help_string(action)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are :class:`UsageError` (one line) and that has ``--debug``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        self.add_argument("--debug", action="store_true",
                          help="on an error, show the full traceback instead of one line")

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def run(main: Callable[[list[str] | None], int], argv: Sequence[str] | None = None) -> int:
    """Call ``main(argv)``; a :class:`UsageError` becomes one line on stderr and exit status 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return main(args)
    except UsageError as error:
        if "--debug" in args:
            raise
        print(f"error: {error}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        if "--debug" in args:
            raise
        print("error: interrupted", file=sys.stderr)
        return 130


# --------------------------------------------------------------------------- option types
def int_in(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an int in ``low..high`` (no upper bound when ``high`` is None)."""
    allowed = f"an int in {low}..{high}" if high is not None else f"an int >= {low}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {allowed}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text!r} is not {allowed}")
        return value

    parse.__name__ = allowed
    return parse


def float_in(low: float, high: float | None = None, *, above_low: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite float in ``low..high`` (``above_low``: greater than ``low``)."""
    start = f"above {low:g}" if above_low else f">= {low:g}"
    allowed = f"a finite number {start}" + (f" and <= {high:g}" if high is not None else "")

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {allowed}") from None
        if not math.isfinite(value) or value < low or (above_low and value == low) or (
                high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text!r} is not {allowed}")
        return value

    parse.__name__ = allowed
    return parse


def json_object(text: str) -> dict[str, Any]:
    """An argparse type: a JSON object such as ``{"num_players": 2}``."""
    try:
        value = json.loads(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{text!r} is not JSON ({error})") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"{text!r} is not a JSON object such as '{{\"num_players\": 2}}'")
    return value


def existing_path(text: str) -> Path:
    """An argparse type: a file or folder that exists."""
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{text!r}: no such file or folder")
    return path


def existing_file(text: str) -> Path:
    """An argparse type: a path to a file that exists."""
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{text!r}: no such file")
    return path


# --------------------------------------------------------------------------- reports
def finite_or_none(value: Any) -> Any:
    """The value with every NaN or infinite float (at any depth) replaced by None."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite_or_none(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite_or_none(v) for v in value]
    return value


def strict_json(value: Any, **kwargs: Any) -> str:
    """JSON that every parser reads: no bare NaN or Infinity (they become null)."""
    return json.dumps(finite_or_none(value), allow_nan=False, **kwargs)

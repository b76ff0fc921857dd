"""The solver commands' ``--shoot-bets`` options: the heads-up instruments with the punter betting the
Shoot, at betting points, a Shoot size, a bet limit and a split limit the user may set."""

from __future__ import annotations

import argparse

from ..cli import Parser, UsageError, int_in
from ..rules import CHIP_LIMIT, SHOOT_BET_POINTS, Rules


def shoot_points(text: str) -> tuple[str, ...]:
    """An argparse type: comma-separated distinct betting points of ``SHOOT_BET_POINTS``."""
    points = tuple(p.strip() for p in text.split(",") if p.strip())
    if not points or any(p not in SHOOT_BET_POINTS for p in points) or len(set(points)) != len(points):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a comma-separated list of distinct betting points from {SHOOT_BET_POINTS}")
    return points


def bet_totals(text: str) -> tuple[int, ...]:
    """An argparse type: comma-separated Shoot-bet totals, each an int of at least 0."""
    try:
        totals = tuple(int(t) for t in text.split(",") if t.strip())
    except ValueError:
        totals = ()
    if not totals or min(totals) < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of ints >= 0")
    return totals


def add_shoot_bet_arguments(parser: Parser) -> None:
    group = parser.add_argument_group("Shoot bets")
    group.add_argument("--shoot-bets", action="store_true",
                       help="the punter bets the Shoot at the betting points (default: every point the heads-up "
                            "model takes under the rules: all three without splits, else before the deal and "
                            "before the second card)")
    group.add_argument("--shoot-points", type=shoot_points, default=None,
                       help=f"with --shoot-bets: comma-separated betting points from {SHOOT_BET_POINTS}")
    group.add_argument("--initial-shoot", type=int_in(1, CHIP_LIMIT), default=None,
                       help="with --shoot-bets: the Shoot's size in chips (default: the rules', 50 in the preset)")
    group.add_argument("--max-shoot-bet", type=int_in(1, CHIP_LIMIT), default=None,
                       help="with --shoot-bets: the most one Shoot bet may be (default: the rules', none)")
    group.add_argument("--shoot-bet-totals", type=bet_totals, default=None,
                       help="with --shoot-bets: comma-separated totals (chips) the punter's best response may bring "
                            "its bet to, besides nothing and all the room (default: every total where the banker "
                            "may change its play, exact over every amount; a trained banker is then asked at every "
                            "total, which takes its asking time times the Shoot's size)")
    group.add_argument("--max-split-hands", type=int_in(1, 2), default=None,
                       help="hands a box may split into, 1 (no splits) or 2 (default: the rules', capped at 2)")


def default_points(rules: Rules) -> tuple[str, ...]:
    """Every betting point the heads-up model takes under ``rules``: a bet before the fourth card is
    modelled only where a box may not split (``game_punter.check_rules``)."""
    if rules.max_split_hands > 1:
        return ("before_deal", "before_second_card")
    return SHOOT_BET_POINTS


def with_shoot_bets(rules: Rules, args: argparse.Namespace) -> Rules:
    """``rules`` as the Shoot-bet options set them (named for what they change); a Shoot option without
    ``--shoot-bets`` is refused in one line, not ignored."""
    if args.max_split_hands is not None:
        rules = rules.replace(max_split_hands=args.max_split_hands,
                              name=f"{rules.name}-max_split_hands{args.max_split_hands}")
    given = [name for name in ("shoot_points", "initial_shoot", "max_shoot_bet", "shoot_bet_totals")
             if getattr(args, name) is not None]
    if not args.shoot_bets:
        if given:
            raise UsageError(f"argument --{given[0].replace('_', '-')}: applies only with --shoot-bets")
        return rules
    if not rules.shoot:
        raise UsageError(f"argument --shoot-bets: rules {rules.name!r} have no Shoot")
    changes: dict = {"shoot_bet_points": args.shoot_points or default_points(rules)}
    if args.initial_shoot is not None:
        changes["initial_shoot"] = args.initial_shoot
        if rules.shoot_cap is not None and rules.shoot_cap < args.initial_shoot:
            changes["shoot_cap"] = args.initial_shoot
    if args.max_shoot_bet is not None:
        changes["max_shoot_bet"] = args.max_shoot_bet
    try:
        return named_variant(rules, changes, unnamed=("shoot_cap",))
    except ValueError as error:
        raise UsageError(f"argument --shoot-bets: {error}") from None


def named_variant(rules: Rules, changes: dict, unnamed: tuple[str, ...] = ()) -> Rules:
    """``rules`` with ``changes`` (a ValueError names a bad one), named for what they change (but the
    ``unnamed`` options); changes that change nothing give the same rules under their own name, so a
    trained model that checks the rules' name is still seated."""
    changed = rules.replace(**changes)
    if changed == rules:
        return rules
    label = "-".join(f"{k}{v if not isinstance(v, tuple) else len(v)}" for k, v in changes.items()
                     if k not in unnamed)
    return changed.replace(name=f"{rules.name}-{label}")


__all__ = ["add_shoot_bet_arguments", "bet_totals", "default_points", "named_variant", "shoot_points",
           "with_shoot_bets"]

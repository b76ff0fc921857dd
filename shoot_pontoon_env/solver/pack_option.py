"""The solver commands' ``--pack`` option: the heads-up instruments on a short research pack, whose games
are small enough for full-tree algorithms (OpenSpiel's among them)."""

from __future__ import annotations

from ..cli import Parser
from ..rules import PACKS, Rules


def add_pack_argument(parser: Parser) -> None:
    parser.add_argument("--pack", default="full", choices=sorted(PACKS),
                        help="the pack: full (52 cards), or a short research pack, piquet (32) or euchre (24), "
                             "whose games are small enough for full-tree algorithms (docs/RULES.md)")


def with_pack(rules: Rules, pack: str) -> Rules:
    """``rules`` on ``pack`` (named for it unless it is the full pack)."""
    return rules if pack == rules.pack else rules.replace(pack=pack, name=f"{rules.name}-{pack}")

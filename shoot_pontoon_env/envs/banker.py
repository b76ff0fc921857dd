"""``ShootPontoonBanker-v0``: the agent holds the bank; the punters are rule-based."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Rules
from ..seat.config import BANKER
from ..players.policy import Policy
from ..players.strategies import StandOnBanker
from ..seat.action_table import banker_action_table
from ..seat.arguments import check_players, check_rules, check_strategies
from .base import PontoonSeatEnv


class ShootPontoonBankerEnv(PontoonSeatEnv):
    """The banker's seat at a Shoot Pontoon table.

    ## Description
    The agent is the banker at seat 0 and keeps the Shoot. The punters (seats 1..num_players-1) are
    rule-based players from :mod:`shoot_pontoon_env.players.strategies`; they stake, bet against the Shoot and
    play their hands inside ``step``. The agent decides its draws once every punter has played, and
    between deals whether to keep the bank or sell it to the next seat at ``rules.bank_sale_price``.
    It sees what a banker sees: all its own cards, the punters' face-up cards, how many face-down
    cards each hand holds, stakes, Shoot bets, and which hands have bust, stood, or shown a Pontoon or
    a Five Card Trick.

    Only rules with a freely drawing banker (``banker_play="free"``) are accepted: under the casino
    rule sets the dealer draws by fixed rules and has no decision, so the constructor refuses them.

    ## Action Space
    ``Discrete(4)``: 0 stick, 1 twist (draw a card face up), 2 keep the bank, 3 sell the bank.

    A deal in which the banker has no decision at all (every punter hand settled before the banker's
    turn, or a Pontoon on the peek, under rules without bank sales) still gives the agent one step at
    its end in which only 0 (stick, an acknowledgement that changes nothing) is legal, so that every
    deal's chips reach the agent through a step.

    ## Observation Space
    The same encoding as ``ShootPontoon-v0`` from the banker's SeatView (see
    :mod:`shoot_pontoon_env.seat.encoding` and ``docs/ENVIRONMENTS.md``).

    ## Rewards
    The change of the banker's chips (balance, plus the Shoot and reserve it holds) since the
    previous step, divided by ``rules.base_stake``, as a Python float holding a float32 value; minus
    ``illegal_action_penalty`` after an illegal action (in an acknowledgement step only the penalty
    applies). Punters who bust while the table plays inside ``reset()`` pay into the first step's
    reward, so an episode's rewards add up to the banker's net chips. Selling the bank returns the
    Shoot to the seller (no change of its chips) and adds the sale price.

    ## Starting State
    A fresh table: seat 0 banks and has posted a new Shoot of ``rules.initial_shoot``; the punters
    stake and play until the banker's first decision. ``reset(options={"stacked": ...})`` stacks the
    first deal as in ``ShootPontoon-v0``; a persistent shoe carries over between unseeded resets.

    ## Episode End
    Terminated after the ``deals_per_episode``-th deal and the bank decision that follows it (rules
    with ``bank_sale``), as soon as the bank leaves the agent (sold, or the Shoot emptied: turnover),
    or at once after an illegal action (the banker's hand counts as bust; a bank decision keeps the
    bank). Never truncated.

    ## Arguments
    - ``rules``: a preset name or a :class:`Rules` with ``banker_play="free"``. Default ``"shoot"``.
    - ``num_players``: seats at the table, 2..10. Default 4.
    - ``punters``: the punters' strategy, or one per punter seat. Default ``"tips"``.
    - ``deals_per_episode``, ``illegal_action_penalty``, ``strict``, ``starting_chips``,
      ``render_mode``, ``engine``: as in ``ShootPontoon-v0``.

    ## Version History
    - v0: initial version (package 0.1); package 0.2 leaves the banker seat's game unchanged.
    - v0, package 0.3: ``engine``, as in ``ShootPontoon-v0`` (a seed deals other cards than in 0.2).
    - v0, after package 0.9.1: info values are numpy arrays of fixed dtypes (``illegal_action`` 0-d
      bool, ``deal`` 0-d int64), and an illegal action's text moved from ``info["message"]`` to
      ``last_message``; the batched engine's shuffle keys take all 62 bits (``Generator.integers``), so
      on it a seed deals other cards than in 0.9.1.
    """

    def __init__(
        self,
        rules: str | Rules = "shoot",
        num_players: int = 4,
        punters: str | Policy | Sequence[str | Policy] = "tips",
        deals_per_episode: int = 1,
        illegal_action_penalty: float = 1.0,
        strict: bool = False,
        starting_chips: int = 1000,
        render_mode: str | None = None,
        engine: str = "auto",
    ) -> None:
        rules = check_rules(rules)
        if rules.banker_play != "free":
            raise ValueError(
                f"rules = {rules.name!r}: ShootPontoonBanker-v0 needs banker_play='free' (a banker who "
                f"decides its draws); under banker_play={rules.banker_play!r} the dealer draws by fixed "
                "rules and has no decision. Use rules='shoot' or a Rules with banker_play='free'."
            )
        num_players = check_players(num_players)
        players = [StandOnBanker()] + check_strategies("punters", punters, num_players - 1)
        super().__init__(
            rules, num_players, 0, BANKER, players, banker_action_table(),
            deals_per_episode=deals_per_episode, illegal_action_penalty=illegal_action_penalty,
            strict=strict, starting_chips=starting_chips, render_mode=render_mode,
            engine=engine, punters_argument=punters,
        )

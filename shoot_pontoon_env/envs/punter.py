"""``ShootPontoon-v0``: the agent holds one punter seat among rule-based table players."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Rules
from ..seat.config import PUNTER
from ..players.policy import Policy
from ..seat.action_table import punter_action_table
from ..seat.arguments import check_int, check_players, check_rules, check_strategies, check_strategy
from .base import PontoonSeatEnv


class ShootPontoonEnv(PontoonSeatEnv):
    """The punter's seat at a Shoot Pontoon table (or a casino Pontoon table, by ``rules``).

    ## Description
    British Shoot Pontoon (seed 000): punters stake against a banker who also keeps the Shoot, a
    kitty that punters bet against on the side. The agent sits at seat ``seat`` (seats are numbered
    clockwise; seat 0 holds the first bank, so seat 1 plays first). The banker and the other punters
    are rule-based players from :mod:`shoot_pontoon_env.players.strategies`. The agent makes every decision
    of its seat: its main stake(s), its Shoot bet at every betting point the rules have, and stick,
    twist, buy, split or Double Stakes for each of its hands; split hands are played one after the
    other. Every decision is the agent's, even one with a single legal action.

    ## Action Space
    ``Discrete(n)`` with this fixed order (``S``, ``B``, ``Y`` the numbers of stake, Shoot bet and buy
    levels; defaults for ``rules="shoot"``: n = 15):

    | index | meaning |
    |---|---|
    | 0 | no further box (only with ``rules.max_boxes`` > 1, after a first box) |
    | 1 .. S | stake ``stake_levels[k]`` chips |
    | S+1 | no Shoot bet |
    | S+2 .. S+1+B | Shoot bet ``shoot_bet_levels[k]`` chips (masked by the Shoot's remaining room) |
    | S+B+2 | stick |
    | S+B+3 | twist |
    | S+B+4 .. S+B+3+Y | buy ``buy_levels[k]`` x the hand's original stake (rounded half up) |
    | S+B+Y+4 | split |
    | S+B+Y+5 | Double Stakes |

    ``env.unwrapped.action_table.labels`` lists the meanings; ``info["action_mask"]`` and
    :meth:`action_masks` (through wrappers: ``env.get_wrapper_attr("action_masks")()``) say which are
    legal now. Once the episode is over the mask allows every index (a vector env's autoreset ignores
    the action that follows), so no mask is empty.

    ## Observation Space
    ``observation="flat"`` (default): ``Box(float32)`` of
    :func:`shoot_pontoon_env.seat.encoding.observation_size` values, the encoded SeatView of the agent's
    seat (see :mod:`shoot_pontoon_env.seat.encoding` and ``docs/ENVIRONMENTS.md`` for the index table).
    ``observation="compact"``: ``Box(0, 1, (COMPACT_SIZE,), float32)``, the decision-relevant features
    of that row that training uses (:mod:`shoot_pontoon_env.envs.features`), written by whichever
    engine plays. Hidden cards never appear; the count of cards seen since the last shuffle is included for
    persistent shoes.

    ## Rewards
    The change of the agent seat's chips (``Table.wealth``: balance plus chips on the table, plus Shoot
    and reserve while it holds the bank) since the previous step, divided by ``rules.base_stake``, as
    a Python float holding a float32 value; an episode's rewards add up to the seat's net chips.
    Stakes placed are not a loss until settled; a bust pays at once. An illegal action subtracts
    ``illegal_action_penalty`` as well.

    ## Starting State
    A fresh table: seat 0 banks and has posted a new Shoot, every seat holds ``starting_chips`` (less
    the Shoot for the banker). The first deal is shuffled and the agent is asked for its stake. A
    persistent shoe (``rules.shoe="persistent"``) carries over from the previous episode, with its
    count, unless ``reset`` gets a seed. ``reset(options={"stacked": "AS TD 9C ..."})`` deals the first
    deal from those cards (dealing order: each punter hand from the banker's left, then the banker;
    twice; then draws in playing order).

    ## Episode End
    Terminated when the ``deals_per_episode``-th deal is settled (before the banker's decision about
    the bank that would follow it), or at once after an illegal action. Never truncated. With several
    deals the Shoot carries over and bank turnover and sales happen; when the bank reaches the agent's
    seat, that seat banks by ``agent_banker`` (a rule-based strategy) and those deals count towards
    the episode, their chips arriving in the reward of the step that plays them.

    ## Arguments
    - ``rules``: a preset name (``"shoot"``, ``"casino"``, ``"playtech"``) or a :class:`Rules`.
    - ``num_players``: seats at the table, 2..10 (the banker included). Default 4.
    - ``seat``: the agent's seat, 1..num_players-1. Default 1 (first to play).
    - ``banker``: the banker's strategy (name or object). Default ``"stand17"``.
    - ``punters``: the other punters' strategy, or one per other punter seat in seat order.
      Default ``"tips"`` (the seed's Tips and Policy).
    - ``stake_levels``: main stakes in chips (default 1, 2 and 5 base stakes within the limits).
    - ``shoot_bet_levels``: Shoot bets in chips (default 1, 2 and 5 base stakes; none without Shoot).
    - ``buy_levels``: buys as multiples of the original stake (default the rules' minimum, midpoint
      and maximum).
    - ``deals_per_episode``: deals in one episode (default 1).
    - ``agent_banker``: the strategy of the agent's seat while it holds the bank. Default ``"stand17"``.
    - ``illegal_action_penalty``: base stakes subtracted after an illegal action (default 1.0).
    - ``strict``: raise :class:`IllegalActionError` on an illegal action instead (state unchanged).
    - ``starting_chips``: each seat's chips at the start (default 1000).
    - ``render_mode``: ``None``, ``"ansi"`` (render returns text), ``"human"`` (prints it) or
      ``"rgb_array"`` (a picture of the table, drawn with Pillow: the ``render`` extra).
    - ``observation``: ``"flat"`` (default) or ``"compact"`` (see Observation Space; in the spec, so
      ``gym.make(env.spec)`` rebuilds it).
    - ``engine``: ``"auto"`` (default), ``"batched"`` or ``"table"``: what plays the episodes. The batched
      engine at one table (the kernel of ``gym.make_vec``; about 6x the Table's speed) or the Table (the
      readable reference, with its event log). ``"auto"`` takes the batched engine unless a table
      player is a Python Policy it cannot play, or chip counts could pass its int32 limit; a stacked
      reset plays on the Table (``engine_in_use`` says which). The same game and the same pictures on
      both (``tests/vector``); the same seed deals other cards.

    ## Version History
    - v0: initial version (package 0.1).
    - v0, package 0.2: the ``casino`` and ``playtech`` presets follow the published game (a soft 21
      of three or four cards may draw; the dealer's five cards are a Five Card Trick), which changes
      ``ShootPontoon-Casino-v0`` and ``ShootPontoon-Playtech-v0``; ``ShootPontoon-v0`` plays as before.
    - v0, package 0.3: ``engine`` (default ``"auto"``): episodes run on the batched engine, the same
      game with a different shuffle, so a seed deals other cards than in 0.2 (``engine="table"``
      replays 0.2's episodes); ``render()`` needs a ``render_mode`` (0.2 returned text without one).
    - v0, package 0.4: a ``render_mode`` no longer moves the env to the Table (the same engine plays
      and deals the same cards with or without one); ``observation="compact"``.
    - v0, after package 0.9.1: info values are numpy arrays of fixed dtypes (``illegal_action`` 0-d
      bool, ``deal`` 0-d int64), and an illegal action's text moved from ``info["message"]`` to
      ``last_message``; the batched engine's shuffle keys take all 62 bits (``Generator.integers``), so
      on it a seed deals other cards than in 0.9.1.
    """

    def __init__(
        self,
        rules: str | Rules = "shoot",
        num_players: int = 4,
        seat: int = 1,
        banker: str | Policy = "stand17",
        punters: str | Policy | Sequence[str | Policy] = "tips",
        stake_levels: Sequence[int] | None = None,
        shoot_bet_levels: Sequence[int] | None = None,
        buy_levels: Sequence[float] | None = None,
        deals_per_episode: int = 1,
        agent_banker: str | Policy = "stand17",
        illegal_action_penalty: float = 1.0,
        strict: bool = False,
        starting_chips: int = 1000,
        render_mode: str | None = None,
        engine: str = "auto",
        observation: str = "flat",
    ) -> None:
        rules = check_rules(rules)
        num_players = check_players(num_players)
        seat = check_int("seat", seat, 1, num_players - 1)
        others = check_strategies("punters", punters, num_players - 2)
        players = [check_strategy("banker", banker)]
        for s in range(1, num_players):
            players.append(check_strategy("agent_banker", agent_banker) if s == seat else others.pop(0))
        super().__init__(
            rules, num_players, seat, PUNTER, players,
            punter_action_table(rules, stake_levels, shoot_bet_levels, buy_levels),
            deals_per_episode=deals_per_episode, illegal_action_penalty=illegal_action_penalty,
            strict=strict, starting_chips=starting_chips, render_mode=render_mode,
            engine=engine, punters_argument=punters, observation=observation,
        )

    @property
    def banker_strategy(self) -> Policy:
        """The ``banker`` argument's strategy: seat 0, the banker until the bank passes."""
        return self.players[0]

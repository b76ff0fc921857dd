"""Policies over an env's observations, each a :class:`Policy` that can sit anywhere a rule-based one does:
:class:`ObservationPolicy` (the base: ``choose(observation, mask, rng) -> index``, and
``choose_batch`` for many rows at once), :class:`CallablePolicy` (a user's function), a network as
numpy arrays (:class:`ActorPlayer`); and the solver's policies by name (:func:`solver_player`, which
``models.resolve.make_policy`` calls).

An observation policy is bound to the env it acts in (:meth:`ObservationPolicy.bind`, an
:class:`EnvContext`: its rules, table size, starting chips and action table). Asked through a
:class:`SeatView` (``act``: a table's opponents, terminal play, the solver's best responses, the
whole table), it encodes the view as that env encodes it, chooses an index of the env's action table,
and the index becomes the :class:`Action` the Table applies. Asked through an env's observations
(``choose``, ``choose_batch``: the agent's own seat, ``evaluate``), it answers the index.

The solver's players are built here, in the installed package, so that ``python -m
shoot_pontoon_env.play`` seats the same ``optimal`` and ``basic`` that the checkout's ``agents/``
(and so ``evaluate``) build by these names.
"""

from __future__ import annotations

import inspect
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..actions import Action, ActionKind
from ..engine.view import SeatView
from ..players.policy import Policy
from ..players.roles import ROLES
from ..rules import Rules
from ..seat.action_table import ActionTable
from ..seat.encoding import ObservationEncoder
from ..seat.features import COMPACT_SIZE, compact_observation
from .mlp import ActorArrays

if TYPE_CHECKING:
    import gymnasium as gym

    from ..solver.player import OptimalPunter
    from ..vector.policy import BatchPlayer

SOLVER_PLAYERS = ("optimal", "basic")
"""The names :func:`solver_player` builds."""


@dataclass(frozen=True)
class EnvContext:
    """What a policy over observations needs to know of the env it acts in: how its observations are
    encoded (rules, table size, starting chips) and what its action indices mean (the action table).
    The spaces and the id are the env's, where it was read from one (a trained model is rebuilt for
    them)."""

    rules: Rules
    action_table: ActionTable
    starting_chips: int
    num_players: int
    observation_space: gym.Space | None = None
    """The env's own (flat) observation space; trained policies are rebuilt for it."""
    action_space: gym.Space | None = None
    env_id: str | None = None

    @classmethod
    def of(cls, env: Any) -> EnvContext:
        """The context of a single-seat env (or an :class:`EnvContext`, returned as it is)."""
        if isinstance(env, EnvContext):
            return env
        base = getattr(env, "unwrapped", env)
        missing = [a for a in ("rules", "action_table", "starting_chips", "num_players") if not hasattr(base, a)]
        if missing:
            raise TypeError(f"{env!r}: expected a single-seat env of this package or an EnvContext (it has no "
                            f"{', '.join(missing)})")
        spec = getattr(base, "spec", None)
        return cls(rules=base.rules, action_table=base.action_table, starting_chips=base.starting_chips,
                   num_players=base.num_players, observation_space=getattr(base, "observation_space", None),
                   action_space=getattr(base, "action_space", None), env_id=spec.id if spec is not None else None)


def idle_index(action_mask: np.ndarray) -> int:
    """The index a policy answers for a row with no decision pending, instead of raising: the row of a
    table that a ``NEXT_STEP`` vector env resets on this step (it ignores that action and hands a mask
    that allows every index) or an empty mask. The first index the mask allows, else 0."""
    legal = np.flatnonzero(action_mask)
    return int(legal[0]) if len(legal) else 0


def action_table_roles(action_table: ActionTable) -> tuple[str, ...]:
    """The roles an action table can play: a stake is only a punter's, keeping or selling the bank only
    the banker's (the single-seat envs' tables have one; the whole table's seat table has both)."""
    kinds = {entry.kind for entry in action_table.entries}
    return tuple(role for role, has in zip(ROLES, (
        ActionKind.STAKE in kinds, bool(kinds & {ActionKind.KEEP_BANK, ActionKind.SELL_BANK}))) if has)


class ObservationPolicy(Policy):
    """A :class:`Policy` that decides on an env's observations: subclasses implement :meth:`choose`
    (one observation and its action mask in, an index of the env's action table out) and may
    implement :meth:`choose_batch` (a row per table; set ``batched`` where it does the batch at once).

    It is bound to the env it acts in (:meth:`bind`, an env or an :class:`EnvContext`) before it is
    asked; ``act(view, rng)`` then encodes a seat's view as that env does and asks :meth:`choose`, so
    it sits at a table as any rule-based policy: as an env's opponent, in terminal play, at the whole
    table, and in the solver's best responses (each asks through views).
    """

    name = "observation policy"
    batched = False
    """Whether :meth:`choose_batch` acts on the whole batch at once (``evaluate`` then plays it on the
    batched engine)."""

    def __init__(self, context: EnvContext | Any | None = None, name: str | None = None) -> None:
        self.context: EnvContext | None = None
        self._encoder: ObservationEncoder | None = None
        if name is not None:
            self.name = name
        if context is not None:
            self.bind(context)

    # ------------------------------------------------------------------ the env it acts in
    def bind(self, context: EnvContext | Any) -> ObservationPolicy:
        """Bind to the env the policy acts in (an env of this package or an :class:`EnvContext`);
        returns the policy itself."""
        self.context = EnvContext.of(context)
        self._encoder = None
        return self

    def _bound(self) -> EnvContext:
        if self.context is None:
            raise RuntimeError(f"{self.name}: bind it to the env it acts in (bind(env)) before it is asked")
        return self.context

    @property
    def encoder(self) -> ObservationEncoder:
        """How the bound env encodes a seat's view."""
        if self._encoder is None:
            context = self._bound()
            self._encoder = ObservationEncoder(context.rules, context.num_players, context.starting_chips)
        return self._encoder

    @property
    def action_table(self) -> ActionTable:
        """The bound env's action table (what :meth:`choose`'s indices mean)."""
        return self._bound().action_table

    @property
    def roles(self) -> tuple[str, ...]:
        """The roles the bound env's action table plays (``action_table_roles``): asked to decide in
        another, it has no legal index and raises. Both before it is bound."""
        if self.context is None:
            return ROLES
        return action_table_roles(self.context.action_table)

    # ------------------------------------------------------------------ deciding
    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """The action index for one observation of the bound env (a row with no decision pending, as a
        ``NEXT_STEP`` vector env hands on its reset step, gets a valid index: :func:`idle_index`)."""
        raise NotImplementedError(f"{type(self).__name__} does not implement choose()")

    def choose_batch(self, observations: np.ndarray, action_masks: np.ndarray,
                     rng: np.random.Generator) -> np.ndarray:
        """One action index per row of a batch (many tables at once). This default asks :meth:`choose`
        row by row; a policy that does the whole batch at once overrides it and sets ``batched``."""
        return np.array([self.choose(o, m, rng) for o, m in zip(observations, action_masks)], dtype=np.int64)

    def episode_starts(self, starts: np.ndarray) -> None:
        """Told by an evaluation, before the next :meth:`choose_batch` (or :meth:`choose`), which of its
        rows (tables) begin an episode there: a stateful policy (a recurrent network) resets their
        memory. This default keeps none."""

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        table = self.action_table
        mask = table.mask(view)
        index = self.choose(self.encoder.encode(view), mask, rng)
        action = table.to_action(index, view) if 0 <= index < len(table) else None
        if action is None or not mask[index]:
            raise RuntimeError(f"{self.name} chose index {index}, which is not legal here")
        return action

    def act_batch(self, views: Sequence[SeatView]) -> list[Action] | None:
        """Where it chooses by a deterministic numpy actor (:meth:`kernel_network`), its actions at
        ``views`` through that actor as one batch, each what :meth:`act` returns there; else None."""
        network = self.kernel_network()
        if network is None:
            return None
        if not views:
            return []
        actor, observation = network
        table = self.action_table
        rows = np.stack([self.encoder.encode(view) for view in views])
        if observation == "compact":
            rows = compact_observation(rows)
        masks = np.stack([table.mask(view) for view in views])
        chosen = np.asarray(actor.act(rows, masks)).reshape(-1)
        actions = []
        for index, view, mask in zip(chosen.tolist(), views, masks):
            action = table.to_action(index, view) if mask[index] else None
            if action is None:
                raise RuntimeError(f"{self.name} chose index {index}, which is not legal here")
            actions.append(action)
        return actions

    # ------------------------------------------------------------------ the batched engine
    def batch_player(self) -> BatchPlayer | None:
        """How the batched engine plays this policy in the agent's seat by itself, with no Python per
        step (a rule-based player, a solver's policy table, uniform over the mask), or None: it is
        asked through :meth:`choose_batch` (``batched``) or on the scalar env."""
        return None

    def kernel_network(self) -> tuple[ActorArrays, str] | None:
        """The numpy actor this policy chooses by and the observation it reads (``"flat"`` or
        ``"compact"``), for the batched engine to play it inside the kernel at a whole table
        (``multiagent.batched_env``); None: a policy the kernel cannot play (this base class's)."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def _takes_rng(function: Callable[..., Any]) -> bool:
    """Whether ``function`` takes a third positional argument (the Generator)."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature: called with two
        return False
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return any(p.kind == p.VAR_POSITIONAL for p in parameters) or len(positional) >= 3


class CallablePolicy(ObservationPolicy):
    """A user's function as a policy: ``function(observation, action_mask)`` (or with a third
    argument, the Generator: ``function(observation, action_mask, rng)``) returning an action index of
    the bound env; with ``batched=True``, a function over a batch (one row per table) returning one
    index per row. Bound like any :class:`ObservationPolicy` (``models.resolve.make_policy`` binds it
    to the seat it is given for)."""

    def __init__(self, function: Callable[..., Any], *, batched: bool = False, name: str | None = None,
                 context: EnvContext | Any | None = None) -> None:
        if not callable(function):
            raise TypeError(f"CallablePolicy: {function!r} is not callable: expected a function of an "
                            "observation and an action mask")
        self.function = function
        self.batched = bool(batched)
        self._rng = _takes_rng(function)
        super().__init__(context, name or getattr(function, "__name__", type(function).__name__))

    def _call(self, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> Any:
        return self.function(observations, masks, rng) if self._rng else self.function(observations, masks)

    def _index(self, value: Any) -> int:
        try:
            return operator.index(value)
        except TypeError:
            raise TypeError(f"{self.name}: returned {value!r}: expected an action index (an int)") from None

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        if self.batched:
            return int(self.choose_batch(np.asarray(observation)[None], np.asarray(action_mask)[None], rng)[0])
        return self._index(self._call(observation, action_mask, rng))

    def choose_batch(self, observations: np.ndarray, action_masks: np.ndarray,
                     rng: np.random.Generator) -> np.ndarray:
        if not self.batched:
            return super().choose_batch(observations, action_masks, rng)
        chosen = np.asarray(self._call(observations, action_masks, rng))
        if chosen.shape != (len(observations),) or not np.issubdtype(chosen.dtype, np.integer):
            raise TypeError(f"{self.name}: returned {chosen.dtype} of shape {chosen.shape} for {len(observations)} "
                            f"rows: expected one action index (an int) per row")
        return chosen.astype(np.int64, copy=False)


class UniformPolicy(ObservationPolicy):
    """Uniform over the legal action indices: the ``random`` of an evaluation and the benchmark's zero
    (the table's ``random`` strategy is uniform over legal moves instead). The batched engine plays it
    in the kernel."""

    name = "random"
    batched = True

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            return idle_index(action_mask)
        return int(legal[rng.integers(len(legal))])

    def choose_batch(self, observations: np.ndarray, action_masks: np.ndarray,
                     rng: np.random.Generator) -> np.ndarray:
        """Uniform over each row's mask; a row whose mask is empty gets 0 (argmax of zeros)."""
        masks = np.asarray(action_masks, dtype=bool)
        return np.argmax(rng.random(masks.shape) * masks, axis=1)

    def batch_player(self) -> BatchPlayer:
        from ..vector.policy import BatchPlayer

        return BatchPlayer.uniform()


class ViewPolicy(ObservationPolicy):
    """A :class:`Policy` over views (a rule-based player, ``optimal``) answering an env's observations:
    each observation is decoded into the view it encodes (``seat.encoding.decode_view``) and the policy's
    action turned into that env's index. The batched engine plays the library's own players in the kernel
    (:meth:`batch_player`), with the same decisions."""

    def __init__(self, policy: Policy, name: str | None = None, context: EnvContext | Any | None = None) -> None:
        if not isinstance(policy, Policy):
            raise TypeError(f"ViewPolicy: {policy!r} is not a Policy")
        self.policy = policy
        super().__init__(context, name or policy.name)

    @property
    def roles(self) -> tuple[str, ...]:
        return self.policy.roles

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        """At a table: the policy itself (no observation to decode)."""
        return self.policy.act(view, rng)

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        from ..seat.encoding import decode_view

        context = self._bound()
        view = decode_view(observation, context.rules, starting_chips=context.starting_chips)
        if not view.legal:  # a finished table (the ignored row of a NEXT_STEP reset): nothing to decide
            return idle_index(action_mask)
        action = self.policy.act(view, rng)
        index = context.action_table.to_index(action, view)
        if not action_mask[index]:
            raise RuntimeError(f"{self.name}: chose index {index}, which the mask forbids")
        return index

    def batch_player(self) -> BatchPlayer | None:
        """The library's rule-based players and the solver's ``OptimalPunter`` (with its Shoot bets) run
        inside the batched engine: the same decisions as :meth:`choose` (``tests/vector`` checks both
        against the policy on the real view)."""
        from ..vector.policy import BatchPlayer

        return BatchPlayer.of_strategy(self.policy, self._bound().rules)


def is_sb3_model(value: object) -> bool:
    """Whether ``value`` looks like a Stable-Baselines3 (or sb3-contrib) model: ``predict`` and the
    spaces (duck-typed: the library does not import SB3)."""
    return (not isinstance(value, (type, Policy)) and callable(getattr(value, "predict", None))
            and hasattr(value, "observation_space") and hasattr(value, "action_space"))


class SB3ModelPolicy(ObservationPolicy):
    """A Stable-Baselines3 or sb3-contrib model object (trained in the user's process) as a policy: its
    deterministic ``predict`` over the whole batch, with the action masks where its ``predict`` takes them
    (MaskablePPO); a model of the compact observation is given it (``seat.features``) from the flat one.
    A model file is read by the safe loader instead (``models.trained.TrainedPlayer``)."""

    batched = True

    def __init__(self, model: Any, name: str | None = None, context: EnvContext | Any | None = None) -> None:
        if not is_sb3_model(model):
            raise TypeError(f"SB3ModelPolicy: {model!r} is not a Stable-Baselines3 model (no predict and spaces)")
        self.model = model
        parameters = inspect.signature(model.predict).parameters
        self._masked = "action_masks" in parameters
        self.recurrent = "state" in parameters and hasattr(getattr(model, "policy", None), "lstm_actor")
        """A recurrent model (sb3-contrib's RecurrentPPO): its memory is kept per row between calls and
        reset where an evaluation says an episode starts (``episode_starts``); asked one decision at a
        time elsewhere (a table's opponent, the solver's best responses), it starts afresh each time."""
        self._state: Any = None
        self._starts: np.ndarray | None = None
        self._actor: ActorArrays | bool | None = None
        super().__init__(context, name or type(model).__name__)

    def episode_starts(self, starts: np.ndarray) -> None:
        self._starts = np.array(starts, dtype=bool)

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        """At a table or in the solver: one decision, with no word of its episode (a recurrent model
        starts afresh at each)."""
        if self.recurrent:
            self._starts, self._state = np.ones(1, dtype=bool), None
        return super().act(view, rng)

    def bind(self, context: EnvContext | Any) -> SB3ModelPolicy:
        """Bind to an env whose action table has the model's actions (a ValueError otherwise; an observation
        of another shape is refused by the model's own ``predict``)."""
        super().bind(context)
        actions, n = len(self.action_table), getattr(self.model.action_space, "n", None)
        if n != actions:
            raise ValueError(f"{self.name}: a model of {n} actions; this seat's action table has {actions}")
        return self

    def _numpy_actor(self) -> ActorArrays | None:
        """The model's actor as numpy arrays where it is an MLP actor-critic (PPO, MaskablePPO, A2C: as a
        model file's is read, ``models.mlp``), else None; built at the first ask."""
        if self._actor is None and not self.recurrent:
            try:
                self._actor = ActorArrays.of_policy(self.model.policy, masked=self._masked)
            except (AttributeError, TypeError, ValueError):  # a Q-network or another shape: predict it is
                self._actor = False
        return self._actor or None

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """One decision: by the numpy actor where there is one (what one torch call per decision costs
        the solver's best responses many times over; torch's action, as for a model file), else by
        :meth:`choose_batch`."""
        actor = self._numpy_actor()
        if actor is None:
            return int(self.choose_batch(np.asarray(observation)[None], np.asarray(action_mask)[None], rng)[0])
        observation = np.asarray(observation)
        if observation.shape[-1] != actor.num_inputs and actor.num_inputs == COMPACT_SIZE:
            observation = compact_observation(observation)
        return int(actor.act(observation, action_mask))

    def choose_batch(self, observations: np.ndarray, action_masks: np.ndarray,
                     rng: np.random.Generator) -> np.ndarray:
        extra = {"action_masks": np.asarray(action_masks, dtype=bool)} if self._masked else {}
        observations = np.asarray(observations)
        if observations.shape[-1] != COMPACT_SIZE and getattr(self.model.observation_space, "shape", None) == (
                COMPACT_SIZE,):  # a model trained on the compact observation, asked with the flat one
            observations = compact_observation(observations)
        if self.recurrent:
            rows = len(observations)
            state = self._state if self._state is not None and self._state[0].shape[1] == rows else None
            if self._starts is not None and len(self._starts) == rows:
                starts = self._starts
            else:  # no word of episodes: the rows go on where memory is kept, else start
                starts = np.full(rows, state is None)
            actions, self._state = self.model.predict(observations, state=state, episode_start=starts,
                                                      deterministic=True)
            self._starts = None
        else:
            actions, _ = self.model.predict(observations, deterministic=True, **extra)
        return np.asarray(actions, dtype=np.int64).reshape(len(observations))


OBSERVATIONS = ("flat", "compact")
"""What a network at the table reads: the seat's flat observation or its compact features."""


class ActorPlayer(ObservationPolicy):
    """A network given as numpy arrays (:class:`ActorArrays`) at the table: its deterministic action
    (``ActorArrays.act``) of the seat's flat observation, or of its compact features
    (``observation="compact"``), over ``action_table`` (the single-seat env's it acts in). What a
    :class:`~shoot_pontoon_env.models.trained.TrainedPlayer` does, without torch or a model file; the
    batched engine plays it inside the kernel at a whole table."""

    batched = True

    def __init__(self, actor: ActorArrays, rules: Rules, num_players: int, starting_chips: int,
                 action_table: ActionTable, name: str = "actor", observation: str = "flat") -> None:
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation = {observation!r}: expected one of {list(OBSERVATIONS)}")
        self.actor = actor
        self.observation = observation
        super().__init__(EnvContext(rules=rules, action_table=action_table, starting_chips=starting_chips,
                                    num_players=num_players), name)

    def bind(self, context: EnvContext | Any) -> ActorPlayer:
        """Bind to an env whose observation and action table fit the actor (a ValueError otherwise)."""
        super().bind(context)
        inputs = COMPACT_SIZE if self.observation == "compact" else self.encoder.size
        table = self.action_table
        if self.actor.num_inputs != inputs or self.actor.num_actions != len(table):
            raise ValueError(f"an actor of {self.actor.num_inputs} inputs and {self.actor.num_actions} actions: "
                             f"this seat's {self.observation} observation has {inputs} values and its action "
                             f"table {len(table)} indices")
        return self

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        if self.observation == "compact":
            observation = compact_observation(observation)
        return self.actor.act(observation, action_mask)

    def choose_batch(self, observations: np.ndarray, action_masks: np.ndarray,
                     rng: np.random.Generator) -> np.ndarray:
        """The whole batch in one pass of the numpy actor (what :meth:`choose` plays row by row)."""
        if self.observation == "compact":
            observations = compact_observation(observations)
        return np.asarray(self.actor.act(np.asarray(observations), np.asarray(action_masks)),
                          dtype=np.int64).reshape(len(observations))

    def __repr__(self) -> str:
        return f"ActorPlayer({self.name!r}, {self.observation} observation)"

    def kernel_network(self) -> tuple[ActorArrays, str] | None:
        if type(self).choose is not ActorPlayer.choose or type(self).act is not ObservationPolicy.act:
            return None  # a subclass that decides otherwise
        return self.actor, self.observation


def shoot_allowance(rules: Rules, levels: Sequence[int] | None = None, shoot: int | None = None) -> int:
    """The Shoot bet the optimal punter weighs at each betting point: the largest it may place within
    ``max_shoot_bet`` and a Shoot of ``shoot`` chips (None: the posted Shoot), of ``levels`` (an env's Shoot
    bet levels) or of any amount (None: a table where bets are typed in chips, as ``play``'s). 0 without a
    betting point."""
    if not rules.shoot or not rules.shoot_bet_points:
        return 0
    shoot = rules.initial_shoot if shoot is None else shoot
    room = min(rules.max_shoot_bet or shoot, shoot)
    if levels is None:
        return room
    return max((level for level in levels if 0 < level <= room), default=0)


def solver_player(name: str, rules: Rules, banker: Policy | None = None,
                  shoot_bet_levels: Sequence[int] | None = None) -> OptimalPunter:
    """A solver's policy by name (``SOLVER_PLAYERS``), named so at the table: the one place that builds
    them (``models.resolve.make_policy`` calls it for these names).

    ``optimal``: the exact solution for the rules and shoe against ``banker`` (a free banker; None:
    the solver's stand on 17), with its Shoot bets at every betting point the rules have, solved for
    :func:`shoot_allowance` of ``shoot_bet_levels`` in stakes of ``base_stake``; where the optimum
    never bets, the bets are left out and the plain solution is played. ``basic``: the infinite-deck
    solution (the total-dependent basic strategy) against the solver's default banker, no Shoot bets.
    A ValueError for another name or a banker the solver cannot model (one that looks at the punters
    or plays at random). The batched engine plays either (its Shoot policy as arrays,
    ``shoot_pontoon_env.vector.policy``)."""
    from ..solver import OptimalPunter, solve

    if name == "basic":
        player = OptimalPunter(solve(rules, infinite=True))
    elif name == "optimal":
        allowance = shoot_allowance(rules, shoot_bet_levels)
        try:
            if not allowance:
                player = OptimalPunter(solve(rules, banker=banker))
            else:
                solution = solve(rules, banker=banker, shoot_ratio=allowance / rules.base_stake)
                shoot = solution.shoot
                bets = shoot.bet_deal or any(shoot.bet_second.values()) or bool(shoot.bet_fourth.any())
                player = OptimalPunter(solution, shoot_bets=bets)
        except NotImplementedError as error:
            raise ValueError(f"optimal: no solver optimum against this banker ({error})") from None
    else:
        raise ValueError(f"unknown solver player {name!r}: expected one of {list(SOLVER_PLAYERS)}")
    player.name = name
    return player

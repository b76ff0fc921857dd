"""A tournament: every agent plays the same seeded hands (common random numbers).

Hand ``h`` of a tournament seeded ``seed`` is dealt from a fresh table whose shoe is shuffled by the key
``shoe.hand_key(seed, h)``, whichever route plays it, so every agent meets the same cards in hand ``h``
(``tests/evaluate/test_one_pairing.py``). By default every agent plays on the batched engine
(``shoot_pontoon_env.vector``): by itself inside the kernel where it can (``batch_player``: rule-based
players, ``optimal``, ``basic``, ``random``), otherwise a batch at a time through ``choose_batch`` (a
network's forward pass, a user's function row by row), one call per step over every table. The scalar
env (one hand after another, hand ``h`` reset with that key and seed ``seed + h``) plays the rest: a
table the batched engine cannot seat, or every agent with ``batched=False``."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

from shoot_pontoon_env.cards import best_total
from shoot_pontoon_env.engine import Phase
from shoot_pontoon_env.engine.hand import Hand
from shoot_pontoon_env.engine.settlement import hand_rank

from shoot_pontoon_env.models.player import ObservationPolicy
from shoot_pontoon_env.models.resolve import checkout_zoo, observation_policy
from shoot_pontoon_env.shoe import hand_key
from shoot_pontoon_env.vector.layout import UnbatchableStrategy

Resolver = Callable[[Any, gym.Env], ObservationPolicy]
"""Turns a spec into a policy bound to an env's agent seat (``as_agent``'s default; the checkout's
``agents.make_agent`` adds its own names)."""

OUTCOMES = ("win", "push", "loss")
ONE_START = np.ones(1, dtype=bool)
"""The scalar route's one table, at the start of each episode (``ObservationPolicy.episode_starts``)."""


@dataclass
class AgentRecord:
    """What one agent did over the tournament's hands (one entry per episode)."""

    name: str
    returns: list[float] | np.ndarray = field(default_factory=list)
    """Episode return in base stakes (the env's reward summed); an array from the batched engine."""
    per_stake: list[float] | np.ndarray = field(default_factory=list)
    """Net chips of the agent's hands per chip staked on its boxes before any split, buy or double
    (the solver's unit: expected return per unit of initial stake)."""
    shoot_part: list[float] | np.ndarray | None = field(default_factory=list)
    """The Shoot bets' share of ``per_stake`` per hand (chips won from the Shoot less Shoot bets lost,
    per unit of initial stake); the rest is the stake part. Both engines record it."""
    outcomes: Counter = field(default_factory=Counter)
    hand_classes: Counter = field(default_factory=Counter)
    shoot_bets: int = 0
    shoot_bets_won: int = 0
    shoot_chips_bet: int = 0
    shoot_chips_won: int = 0
    shoot_after: list[int] | np.ndarray = field(default_factory=list)
    turnovers: int = 0
    illegal: int = 0
    decisions: Counter = field(default_factory=Counter)
    """(hard or soft, total, cards) -> action label counts of the agent's playing decisions."""
    engine: str = "scalar"
    """Where the hands were played: ``"scalar"`` (the Gymnasium env) or ``"batched"``."""
    seconds: float = 0.0
    """Wall seconds of its hands."""


def _decision_key(env: gym.Env) -> tuple[str, int, int] | None:
    view = env.unwrapped.view
    hand = view.current_hand
    if view.phase != Phase.PLAY or hand is None or view.shoot_bet_point is not None:
        return None
    total, soft = best_total(hand.cards)
    return ("soft" if soft else "hard", total, len(hand.cards))


def _record_episode(record: AgentRecord, env: gym.Env, episode_return: float) -> None:
    base = env.unwrapped
    mine = [h for h in base.hands() if h.seat == base.seat]
    record.returns.append(episode_return)
    if mine:  # the banker seat holds no hands: no per-stake figure
        initial = sum({h.box: h.original_stake for h in mine}.values())  # split hands share their box
        record.per_stake.append(sum(h.result for h in mine) / initial)
        record.shoot_part.append(sum(shoot_result(h) for h in mine) / initial)
    net = sum(h.result for h in mine) if mine else episode_return  # the banker seat holds no hands
    record.outcomes["win" if net > 0 else "loss" if net < 0 else "push"] += 1
    for hand in mine:
        record.hand_classes[hand_rank(hand, base.rules).hand_class.name.lower()] += 1
        if hand.shoot_bet:
            record.shoot_bets += 1
            record.shoot_chips_bet += hand.shoot_bet
            if hand.won_from_shoot:
                record.shoot_bets_won += 1
                record.shoot_chips_won += hand.won_from_shoot
    record.shoot_after.append(base.view.shoot)
    record.turnovers += base.bank_turnovers


def shoot_result(hand: Hand) -> int:
    """A settled hand's Shoot bet result in chips: won from the Shoot, lost with the hand, or pushed."""
    if hand.won_from_shoot:
        return hand.won_from_shoot
    return -hand.shoot_bet if hand.result < 0 else 0


def as_agent(agent: Any, env: gym.Env, resolve: Resolver | None = None) -> ObservationPolicy:
    """``agent`` bound to ``env``'s agent seat: an observation policy as it is, anything else (a name,
    ``module:Name``, a model path, a Policy over views, an SB3 model, a callable) as ``resolve`` makes it
    (by default ``models.resolve.observation_policy``, with the checkout's zoo where there is one)."""
    if isinstance(agent, ObservationPolicy):
        return agent.bind(env)
    if resolve is not None:
        return resolve(agent, env)
    return observation_policy(agent, env, label="agent", zoo=checkout_zoo())


def play_agent(make_env: Callable[[], gym.Env], agent: Any, hands: int, seed: int,
               progress: Callable[[int], object] | None = None, resolve: Resolver | None = None) -> AgentRecord:
    """``hands`` episodes on the scalar env; episode ``i`` is reset with the shuffle key
    ``hand_key(seed, i)`` (the cards the batched engine deals hand ``i``) and seed ``seed + i``, and the
    agent acts with a Generator seeded ``seed + i``. ``progress(1)`` is called after each hand (a
    progress bar's ``update``). ``agent``: any policy (:func:`as_agent`)."""
    env = make_env()
    agent = as_agent(agent, env, resolve)
    record = AgentRecord(agent.name)
    for i in range(hands):
        obs, info = env.reset(seed=seed + i, options={"shuffle_key": hand_key(seed, i)})
        agent.episode_starts(ONE_START)
        rng = np.random.default_rng(seed + i)
        total, done = 0.0, False
        while not done:
            key = _decision_key(env)
            action = agent.choose(obs, info["action_mask"], rng)
            if key is not None:
                record.decisions[(*key, env.unwrapped.action_table.entries[action].label)] += 1
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
            record.illegal += int(info.get("illegal_action", False))
        _record_episode(record, env, total)
        if progress is not None:
            progress(1)
    env.close()
    return record


def play_agent_batched(env: gym.Env, env_kwargs: dict, agent: ObservationPolicy, hands: int, seed: int,
                       progress: Callable[[int], object] | None = None, num_tables: int = 4096,
                       resolve: Resolver | None = None) -> AgentRecord:
    """``hands`` hands on the batched engine, configured like ``env`` (built with ``env_kwargs``)."""
    from shoot_pontoon_env.cards import HandClass
    from shoot_pontoon_env.vector.kernel_evaluation import (
        D_CARDS, D_TOTALS, R_CLASSES, R_ILLEGAL, R_SHOOT_BETS, R_SHOOT_BETS_WON, R_SHOOT_CHIPS_BET,
        R_SHOOT_CHIPS_WON, R_TURNOVERS,
    )
    from shoot_pontoon_env.vector.evaluation import evaluate_hands

    base = env.unwrapped
    agent = as_agent(agent, env, resolve)
    player = agent.batch_player()
    rng = np.random.default_rng(seed)
    actor = None if player is not None else (lambda obs, masks: agent.choose_batch(obs, masks, rng))
    results = evaluate_hands(base.config, hands, seed, player=player, actor=actor,
                             num_tables=num_tables, progress=progress, rng=rng, episode_starts=agent.episode_starts)
    record = AgentRecord(agent.name, engine="batched")
    record.returns = results.returns
    own = ~np.isnan(results.per_stake)
    record.per_stake, record.shoot_part = results.per_stake[own], results.shoot_part[own]
    record.outcomes = Counter({"win": int((results.outcome > 0).sum()), "push": int((results.outcome == 0).sum()),
                               "loss": int((results.outcome < 0).sum())})
    totals = results.totals
    record.hand_classes = Counter({cls.name.lower(): int(totals[R_CLASSES + int(cls)])
                                   for cls in HandClass if totals[R_CLASSES + int(cls)]})
    record.shoot_bets, record.shoot_bets_won = int(totals[R_SHOOT_BETS]), int(totals[R_SHOOT_BETS_WON])
    record.shoot_chips_bet = int(totals[R_SHOOT_CHIPS_BET])
    record.shoot_chips_won = int(totals[R_SHOOT_CHIPS_WON])
    record.shoot_after = results.shoot_after
    record.turnovers, record.illegal = int(totals[R_TURNOVERS]), int(totals[R_ILLEGAL])
    labels = base.action_table.labels
    counts = results.decisions.reshape(2, D_TOTALS, D_CARDS, len(labels))
    for soft, total, cards, action in zip(*np.nonzero(counts)):
        key = ("soft" if soft else "hard", int(total), int(cards), labels[action])
        record.decisions[key] = int(counts[soft, total, cards, action])
    return record


def run_tournament(make_env: Callable[[], gym.Env], agents: Sequence[Any], hands: int,
                   seed: int = 0, progress: Callable[[int], object] | None = None, *,
                   batched: bool = True, env_kwargs: dict | None = None, num_tables: int = 4096,
                   resolve: Resolver | None = None) -> list[AgentRecord]:
    """Every agent's record over the same hands: on the batched engine (unless ``batched`` is False, or
    the env's table is one the batched engine cannot seat), on the scalar env otherwise; either route
    deals hand ``h`` the same cards. An agent is any policy (:func:`as_agent`)."""
    records = []
    for agent in agents:
        start = time.perf_counter()
        env = make_env()
        agent = as_agent(agent, env, resolve)
        record = None
        if batched:
            try:
                record = play_agent_batched(env, env_kwargs or {}, agent, hands, seed, progress, num_tables)
            except UnbatchableStrategy as error:  # a table player of the env the kernel cannot play
                print(f"{agent.name}: on the scalar env ({error})")
        if record is None:
            record = play_agent(make_env, agent, hands, seed, progress)
        record.seconds = time.perf_counter() - start
        records.append(record)
    return records

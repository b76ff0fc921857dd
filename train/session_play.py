"""A session self-play run's pair played at the batched engine, many-deal episodes at once, recording
what the session check compares with the exact chain (``train/session_check.py``): every keep-or-sell
decision of the banker (the Shoot, the deals left), every Shoot bet of the punter (the Shoot, the
betting point, the chips), and each episode's first bank (its banker's chips until the bank passes, is
sold or the deals run out: the chain's session from the posted Shoot).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from shoot_pontoon_env.multiagent import batched_env
from shoot_pontoon_env.rules import get_rules
from shoot_pontoon_env.seat import encoding as enc

from .table_measure import trained_actor

KEPT, PASSED, SOLD = 0, 1, 2
"""How an episode's first bank ended: kept to the last deal, passed (a deal emptied its Shoot), sold."""


@dataclass(frozen=True)
class SessionPlay:
    """What the pair did over ``episodes`` episodes of ``deals`` deals (chips throughout)."""

    deals: int
    episodes: int
    bank_shoot: np.ndarray
    """Each keep-or-sell decision's Shoot, ..."""
    bank_left: np.ndarray
    """... the deals the episode has left after it, ..."""
    bank_sold: np.ndarray
    """... and whether the banker sold."""
    bet_shoot: np.ndarray
    """Each Shoot bet decision's Shoot (before it), ..."""
    bet_point: np.ndarray
    """... its betting point (an index of ``rules.SHOOT_BET_POINTS``), ..."""
    bet_chips: np.ndarray
    """... and the chips bet (0: none)."""
    first_net: np.ndarray
    """The first bank's chips to its holder over its session, one per episode."""
    first_end: np.ndarray
    """How that session ended (``KEPT``, ``PASSED``, ``SOLD``)."""
    first_deals: np.ndarray
    """Deals that session played."""
    bet_rank: np.ndarray | None = None
    """Each Shoot bet decision's lone card's rank (0 the Ace .. 12 the King) where the box holds one card
    (before the second card), else -1: whether the punter reads ranks where values would do."""
    bank_deal: np.ndarray | None = None
    """Each keep-or-sell decision's chips to the banker until its next one, the bank changing hands or
    the episode's end (a keep: the deal it kept, none after the last deal; a sale: what the sale paid)."""


def play_pair(run: Path, config: Any, episodes: int, seed: int, tables: int = 512,
              sells: Callable[[int], bool] | None = None, sampled: tuple[str, ...] = ()) -> SessionPlay:
    """``episodes`` episodes of the run's final punter and banker (``run/punter``, ``run/banker``,
    deterministic, as a saved model plays), seat 0 holding the first bank; table i of chunk c dealt from
    ``seed + c``. ``sells``: the banker's keep-or-sell answer at each Shoot in place of its network's (the
    chain's question to it, which shows none of the deal just played), so that the sessions are of the
    banker the chain values. ``sampled``: roles whose every answer is drawn from their policy, as in
    training, in place of their likeliest."""
    kwargs = config.table_kwargs()
    unit = get_rules(config.rules).base_stake
    deals = config.deals_per_episode
    seat_table = batched_env(1, **kwargs).action_table
    labels = seat_table.labels
    keep, sell = labels.index("keep bank"), labels.index("sell bank")
    bet_chips = {labels.index(label): int(label.split()[-1]) for label in labels if label.startswith("Shoot bet ")}
    bet_chips[labels.index("no Shoot bet")] = 0
    bet_index = np.array(sorted(bet_chips))
    chips_of = np.zeros(len(labels), dtype=np.int64)
    chips_of[bet_index] = [bet_chips[i] for i in bet_index]
    rng = np.random.default_rng(seed)
    unknown = sorted(set(sampled) - {"punter", "banker"})
    if unknown:
        raise ValueError(f"sampled roles {unknown}: expected punter, banker")
    actors = {role: trained_actor(str(run / role), role, seat_table, config.role_env_kwargs(role), rng,
                                  sampled=role in sampled)
              for role in ("punter", "banker")}
    rec: dict[str, list[np.ndarray]] = {k: [] for k in ("bank_shoot", "bank_left", "bank_sold", "bet_shoot",
                                                         "bet_point", "bet_chips", "first_net", "first_end",
                                                         "first_deals", "bet_rank")}
    bank_deal: list[float] = []
    chunk = 0
    while chunk * tables < episodes:
        n = min(tables, episodes - chunk * tables)
        env = batched_env(n, first_banker=0, **kwargs)
        obs, info = env.reset(seed=seed + chunk)
        open_ = np.ones(n, dtype=np.bool_)
        first = np.ones(n, dtype=np.bool_)  # the first bank still held by seat 0
        net = np.zeros(n)
        end = np.full(n, KEPT, dtype=np.int64)
        played = np.zeros(n, dtype=np.int64)
        sold_last = np.zeros(n, dtype=np.bool_)
        deal_of = np.full(n, -1, dtype=np.int64)  # each table's open keep-or-sell decision (-1: none)
        deal_chips = np.zeros(n)
        deal_seat = np.zeros(n, dtype=np.int64)

        def close(at: np.ndarray) -> None:
            for i in at[deal_of[at] >= 0]:
                bank_deal[deal_of[i]] = float(deal_chips[i])
            deal_of[at] = -1
        while open_.any():
            seats, masks, bankers = info["current_seat"], info["action_mask"], info["banker"]
            actions = np.full(n, -1, dtype=np.int64)
            asked = np.flatnonzero(open_ & (seats >= 0))
            banking = asked[seats[asked] == bankers[asked]]
            punting = asked[seats[asked] != bankers[asked]]
            if len(banking):
                actions[banking] = actors["banker"](obs[banking], masks[banking])
            if len(punting):
                actions[punting] = actors["punter"](obs[punting], masks[punting])
            decided = banking[masks[banking, keep]]
            if len(decided):
                shoots = np.rint(obs[decided, enc.CHIP_SHOOT] * unit).astype(np.int64)
                if sells is not None:
                    actions[decided] = np.where([sells(int(shoot)) for shoot in shoots], sell, keep)
                rec["bank_shoot"].append(shoots)
                rec["bank_left"].append(deals - info["deal"][decided])
                rec["bank_sold"].append(actions[decided] == sell)
                close(decided)
                deal_of[decided] = len(bank_deal) + np.arange(len(decided))
                bank_deal.extend([0.0] * len(decided))
                deal_chips[decided], deal_seat[decided] = 0.0, bankers[decided]
            sold_last[decided] = actions[decided] == sell
            betting = punting[masks[punting][:, bet_index].any(axis=1)]
            if len(betting):
                rec["bet_shoot"].append(np.rint(obs[betting, enc.CHIP_SHOOT] * unit).astype(np.int64))
                rec["bet_point"].append(np.argmax(obs[betting, enc.BET_POINT], axis=1))
                rec["bet_chips"].append(chips_of[actions[betting]])
                ranks = np.rint(obs[betting, enc.CURRENT][:, enc.H_RANKS] * enc.MAX_CARDS).astype(np.int64)
                rec["bet_rank"].append(np.where(ranks.sum(axis=1) == 1, np.argmax(ranks, axis=1), -1))
            deal_before = info["deal"].copy()
            obs, rewards, terminations, _, info = env.step(actions)
            net += np.where(open_ & first, rewards[:, 0], 0.0) * unit
            deal_chips += rewards[np.arange(n), deal_seat] * unit
            close(np.flatnonzero((deal_of >= 0) & ((info["banker"] != deal_seat) | terminations)))
            moved = open_ & first & (info["banker"] != 0) & ~terminations
            end[moved] = np.where(sold_last[moved], SOLD, PASSED)
            played[moved] = deal_before[moved]
            finished = open_ & first & terminations
            played[finished] = deals
            first &= ~(moved | finished)
            open_ &= ~terminations
        rec["first_net"].append(net)
        rec["first_end"].append(end)
        rec["first_deals"].append(played)
        chunk += 1
    arrays = {k: np.concatenate(v) if v else np.zeros(0) for k, v in rec.items()}
    return SessionPlay(deals, episodes, **arrays, bank_deal=np.array(bank_deal))


__all__ = ["KEPT", "PASSED", "SOLD", "SessionPlay", "play_pair"]

"""A compact observation for a punter's seat: the decision-relevant part of the flat observation,
re-coded so that a small network learns it fast.

The flat observation (``encoding.py``) is complete but hard to learn from: hand totals are scalars
(the rules switch at 15, 16, 17 and 21, which one-hot codes make linear), chip fields are unbounded
(a stake range of 1..100 beside fractions of 1), and most of its indices describe other seats'
hands. :func:`compact_observation` keeps only what a punter's decisions depend on, all in [0, 1]:

=============== ================================================================================
PHASE, BET_POINT, LEGAL_KINDS  copied from the flat observation
TOTAL           one-hot visible total of the pending hand, 0..21, then one slot for a bust
HAND            present, soft, pair (two cards of one rank), cards held one-hot 1..5 (none: 0), stake /
                original stake / 4, buys / 3, twists / 3, doubled, from split, has a Shoot bet
BANKER          the flat observation's BANKER block (first visible card, counts, total, flags)
COUNT           the flat observation's COUNT block (fraction of each rank seen)
CHIPS           log-scaled Shoot, reserve and Shoot capacity, in base stakes
EPISODE         deals left / deals per episode
=============== ================================================================================

It is a pure function of the flat observation, so a trained agent applies it to what any env
gives it, and rule-based agents keep reading the flat observation. A punter env made with
``observation="compact"`` returns it directly: the batched engine writes it without the flat row
(``vector/kernel.py`` ``encode_compact``, differential-tested against this function).
"""

from __future__ import annotations

import math

import numpy as np

from . import encoding as enc

MAX_TOTAL = 21
CHIP_LOG_SCALE = float(np.log1p(enc.CHIP_BOUND))

_COPIED = (enc.PHASE, enc.BET_POINT, enc.LEGAL_KINDS)
_HAND_EXTRA = 3  # doubled, from split, Shoot bet (after buys and twists)


def _layout() -> dict[str, slice]:
    """Where each part of the compact row lies (the batched engine writes it by these)."""
    sizes = [("PHASE", enc.PHASE.stop - enc.PHASE.start), ("BET_POINT", enc.BET_POINT.stop - enc.BET_POINT.start),
             ("LEGAL_KINDS", enc.LEGAL_KINDS.stop - enc.LEGAL_KINDS.start), ("TOTAL", MAX_TOTAL + 2),
             ("HAND", 3 + enc.MAX_CARDS + 1 + 2 + _HAND_EXTRA), ("BANKER", enc.BANKER.stop - enc.BANKER.start),
             ("COUNT", enc.COUNT.stop - enc.COUNT.start), ("CHIPS", 3), ("EPISODE", 1)]
    blocks, at = {}, 0
    for name, size in sizes:
        blocks[name] = slice(at, at + size)
        at += size
    return blocks


COMPACT_BLOCKS = _layout()
COMPACT_SIZE = COMPACT_BLOCKS["EPISODE"].stop
CF_PHASE, CF_BET_POINT, CF_LEGAL_KINDS, CF_TOTAL, CF_HAND, CF_BANKER, CF_COUNT, CF_CHIPS, CF_EPISODE = (
    COMPACT_BLOCKS[name].start for name in
    ("PHASE", "BET_POINT", "LEGAL_KINDS", "TOTAL", "HAND", "BANKER", "COUNT", "CHIPS", "EPISODE"))
"""The first index of each part of the compact row."""
(CH_PRESENT, CH_SOFT, CH_PAIR, CH_CARDS, CH_STAKE_RATIO, CH_BUYS, CH_TWISTS, CH_DOUBLED, CH_FROM_SPLIT,
 CH_SHOOT_BET) = (0, 1, 2, 3, 3 + enc.MAX_CARDS, 4 + enc.MAX_CARDS, 5 + enc.MAX_CARDS, 6 + enc.MAX_CARDS,
                  7 + enc.MAX_CARDS, 8 + enc.MAX_CARDS)
"""The pending hand's features, from CF_HAND: present, soft, pair, cards held one-hot (5), stake /
original stake / 4, buys, twists, doubled, from split, has a Shoot bet."""


_LIBM_LOG1P = np.frompyfunc(math.log1p, 1, 1)


def _log1p(values: np.ndarray) -> np.ndarray:
    """log1p in float64 by the C library's ``log1p``, which the batched engine calls too: numpy's own
    (vectorised) log1p differs from it in the last bit of about one value in a hundred, and so would
    the two engines' observations (three values a row: the cost is small)."""
    return _LIBM_LOG1P(values).astype(np.float64)


def compact_observation(obs: np.ndarray) -> np.ndarray:
    """The compact features of one flat observation (shape ``(n,)``) or a batch (``(b, n)``)."""
    obs = np.asarray(obs, dtype=np.float32)
    batch = obs.reshape(-1, obs.shape[-1])
    if batch.shape[1] < enc.HANDS_START:
        raise ValueError(
            f"observation of length {batch.shape[1]} is not a flat ShootPontoon observation "
            f"(at least {enc.HANDS_START} values)"
        )
    rows = np.arange(len(batch))
    current = batch[:, enc.CURRENT]
    present = current[:, enc.H_PRESENT]

    total = np.rint(current[:, enc.H_TOTAL] * enc.TOTAL_SCALE).astype(np.int64)
    total_onehot = np.zeros((len(batch), MAX_TOTAL + 2), dtype=np.float32)
    total_onehot[rows, np.minimum(total, MAX_TOTAL + 1)] = 1.0
    total_onehot *= present[:, None]

    cards = np.rint(current[:, enc.H_VISIBLE] * enc.MAX_CARDS + current[:, enc.H_HIDDEN] * enc.MAX_CARDS)
    cards_onehot = np.zeros((len(batch), enc.MAX_CARDS), dtype=np.float32)
    held = np.clip(cards.astype(np.int64), 1, enc.MAX_CARDS) - 1
    cards_onehot[rows, held] = present * (cards >= 1)  # a hand can be pending before its first card
    rank_counts = np.rint(current[:, enc.H_RANKS] * enc.MAX_CARDS)
    pair = ((cards == 2) & (rank_counts.max(axis=1) == 2)).astype(np.float32)
    original = current[:, enc.H_ORIGINAL]
    stake_ratio = np.divide(current[:, enc.H_STAKE], 4.0 * original,
                            out=np.zeros_like(original), where=original > 0)
    hand = np.column_stack([
        present, current[:, enc.H_SOFT], pair, cards_onehot, np.minimum(stake_ratio, 1.0),
        current[:, enc.H_BUYS], current[:, enc.H_TWISTS], current[:, enc.H_DOUBLED],
        current[:, enc.H_FROM_SPLIT], (current[:, enc.H_SHOOT_BET] > 0).astype(np.float32),
    ])
    chips = _log1p(np.maximum(batch[:, [enc.CHIP_SHOOT, enc.CHIP_RESERVE, enc.CHIP_CAPACITY]], 0.0).astype(np.float64))
    parts = [batch[:, block] for block in _COPIED] + [
        total_onehot, hand, batch[:, enc.BANKER], batch[:, enc.COUNT],
        chips / CHIP_LOG_SCALE, batch[:, enc.EPISODE],
    ]
    features = np.clip(np.concatenate(parts, axis=1), 0.0, 1.0).astype(np.float32)
    return features.reshape(obs.shape[:-1] + (COMPACT_SIZE,))

"""What a multi-deal self-play run's banker reads when it keeps or sells the bank (RESULTS, "Reading the
Shoot").

The exact chain (``solver/session``) asks the banker at a view of the Shoot alone; at the engine the banker
answers at a row that still shows the deal just played. This plays ``--deals`` deals of the run's pair at
tables holding a Shoot of ``--shoot`` chips up to the bank decision and keeps the banker's rows there; then,
for each Shoot size, sets those rows' Shoot (and the room for a bet it gives) to it and reports the share
the banker sells (its deterministic answer) and its mean chance of selling, beside its answer at the
chain's view. Last, each block of the row (``seat.encoding.BLOCKS``, the hand slots as ``HANDS``) is
replaced in turn by the chain's view's, to show which part of the deal moves the answer.

Run from the checkout's root: ``PYTHONPATH=. .venv/bin/python benchmarks/bank_decision_reading.py RUN
[--deals 1000] [--shoot S] [--seed 0] [--json]``
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from shoot_pontoon_env.engine import Phase
from shoot_pontoon_env.engine.view import seat_view
from shoot_pontoon_env.models.resolve import make_policy
from shoot_pontoon_env.players.session import play_until
from shoot_pontoon_env.rules import get_rules
from shoot_pontoon_env.seat import encoding as enc
from shoot_pontoon_env.solver.headsup.game_punter import STARTING_CHIPS
from shoot_pontoon_env.solver.session.sessions import BANKER, bank_decision_view, table_at_shoot
from train.table_selfplay import read_run_config


def bank_rows(rules, banker, punter, shoot: int, deals: int, seed: int) -> np.ndarray:
    """The banker's rows at the bank decision after ``deals`` deals, each at a new table holding ``shoot``
    chips (deals where the bank passed are left out: nobody is asked)."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(deals):
        table = table_at_shoot(rules, shoot, np.random.default_rng(rng.integers(2**63)))
        table.start_deal()
        play_until(table, [banker, punter], rng, lambda t: t.phase == Phase.BANK_DECISION)
        if table.phase == Phase.BANK_DECISION and table.banker == BANKER:
            rows.append(banker.encoder.encode(seat_view(table, BANKER)))
    return np.stack(rows)


def sell_chance(banker, rows: np.ndarray) -> np.ndarray:
    """The banker's chance of selling at each row (its policy over keep and sell, the two legal actions)."""
    labels = list(banker.action_table.labels)
    columns = [labels.index("keep bank"), labels.index("sell bank")]
    logits = banker.trained.actor.logits(rows)[:, columns]
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    return odds[:, 1] / odds.sum(axis=1)


SHOOT_COLUMNS = [enc.CHIP_SHOOT, enc.CHIP_CAPACITY]
"""What a row's Shoot size shows: the Shoot and the room for a bet, which between deals is the Shoot (up to
``max_shoot_bet``)."""


def at_shoot(rows: np.ndarray, view: np.ndarray) -> np.ndarray:
    """The rows with the Shoot of ``view`` (a row at the chain's view of a Shoot size)."""
    out = rows.copy()
    out[:, SHOOT_COLUMNS] = view[SHOOT_COLUMNS]
    return out


def reading(run: Path, deals: int, shoot: int | None, seed: int) -> dict:
    config = read_run_config(run)
    rules = get_rules(config.rules)
    seat = {"rules": rules, "num_players": 2, "starting_chips": STARTING_CHIPS}
    banker = make_policy(str(run / "banker"), role="banker", **seat)
    punter = make_policy(str(run / "punter"), role="punter", **seat)
    shoot = rules.initial_shoot if shoot is None else shoot
    rows = bank_rows(rules, banker, punter, shoot, deals, seed)
    step = min(config.shoot_bet_levels)
    sizes = range(step, rules.shoot_cap, step)
    by_shoot = {}
    for size in sizes:
        view = banker.encoder.encode(bank_decision_view(rules, size))
        chance = sell_chance(banker, at_shoot(rows, view))
        by_shoot[size] = {"sells": float((chance > 0.5).mean()), "sell_chance": float(chance.mean()),
                          "chain_view_sell_chance": float(sell_chance(banker, view[None])[0])}
    view = banker.encoder.encode(bank_decision_view(rules, shoot))
    at = at_shoot(rows, view)
    blocks = dict(enc.BLOCKS, HANDS=slice(enc.HANDS_START, rows.shape[1]))
    replaced = {}
    for name, columns in blocks.items():
        moved = at.copy()
        moved[:, columns] = view[columns]
        replaced[name] = float(sell_chance(banker, moved).mean())
    return {"run": str(run), "deals": deals, "rows": len(rows), "shoot": shoot, "seed": seed,
            "by_shoot": by_shoot, "sell_chance_at_rows": float(sell_chance(banker, at).mean()),
            "sell_chance_with_block_as_chain_view": replaced}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--shoot", type=int, default=None,
                        help="the Shoot the deals are played at (default: the rules' posted one)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = reading(args.run, args.deals, args.shoot, args.seed)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{out['rows']} bank decisions after deals at a Shoot of {out['shoot']}")
    print("Shoot  sells  sell chance  (at the chain's view)")
    for size, row in out["by_shoot"].items():
        print(f"{size:5d}  {row['sells']:5.3f}  {row['sell_chance']:11.3f}  ({row['chain_view_sell_chance']:.3f})")
    print(f"sell chance at the rows {out['sell_chance_at_rows']:.3f}; with one block as the chain's view:")
    for name, chance in out["sell_chance_with_block_as_chain_view"].items():
        print(f"  {name:12s} {chance:.3f}")


if __name__ == "__main__":
    main()

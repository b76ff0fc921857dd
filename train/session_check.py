"""A multi-deal self-play run checked against the exact value of the bank (docs/TRAINING.md, "Sessions").

``python -m train.session_check RUN [--episodes N] [--seed S] [--json]`` reads a heads-up run of
``train/configs/table_selfplay/session.yml`` (its final ``punter`` and ``banker``), plays ``N`` episodes
of the pair at the batched engine (``session_play.py``) and computes, exactly, the Shoot's chain under
the pair's own per-deal play (``solver/session/chain.py``, every Shoot the episode can reach):

- **the bank's value**: the chain's value of the first bank (the posted Shoot, the episode's deals, sold
  where the banker's own rule sells) beside the engine's sessions, with the z-score, the banker's sales
  at the engine being the chain's question to it (``play_pair(sells=...)``: a network whose choice reads
  the deal just played is another banker at the engine; its own sessions are reported beside,
  ``engine_as_itself``);
- **sales**: at every keep-or-sell decision the pair met, the exact rule (sell when the price beats the
  value of keeping the bank for the deals left, with the best sales after: ``BankChain.keep_value``)
  against the banker's choice, by Shoot, with the chips each decision gives up and the best agreement a
  banker blind to the clock could reach (the rule may turn with the deals left); and how often the
  banker's choice at the engine is the one the chain asks it (its question shows no cards of the deal just
  played);
- **Shoot bets**: by bucket of Shoot sizes, the chips the punter bets, and the share it captures of the
  optimum's Shoot part: against ``stand17`` (the banker the solver's optimum is computed against), the
  value the punter's Shoot bets add to its own play (the pair's value less that of the same punter
  never betting) over the value the optimum's bets (the largest level the Shoot's room allows) add to
  the optimum's; and the value the punter's bets add against its own banker.

The networks must be blind to the episode's clock and the banker to its chips (``ignores`` in the
config): the chain values players who play every deal alike at a given Shoot, and refuses no others, so
this is checked first. Writes ``RUN/session_check.json``.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from shoot_pontoon_env.actions import Action, ActionKind
from shoot_pontoon_env.cards import RANKS
from shoot_pontoon_env.cli import Parser, UsageError
from shoot_pontoon_env.engine.view import SeatView
from shoot_pontoon_env.players.policy import Policy
from shoot_pontoon_env.rules import get_rules

from .session_play import PASSED, SOLD, SessionPlay, play_pair

BUCKETS = (0, 40, 60, 90)
"""Lower ends of the Shoot-size buckets of the Shoot-bet check (chips): under 40, 40-59, 60-89, 90 up, each
also split at every bet level (``bucket_edges``)."""


@dataclass(repr=False)
class NeverBets(Policy):
    """``base`` with every Shoot bet declined: what its own play is worth without its Shoot bets."""

    base: Policy

    def __post_init__(self) -> None:
        self.name = f"{getattr(self.base, 'name', self.base)} without Shoot bets"

    def act(self, view: SeatView, rng: np.random.Generator) -> Action:
        if any(move.kind == ActionKind.SHOOT_BET for move in view.legal):
            return Action(ActionKind.SHOOT_BET, 0)
        return self.base.act(view, rng)


def check_blind(config: Any) -> None:
    """The run's networks must play every deal alike at a Shoot (the chain's players)."""
    needed = {"punter": {"deals_left"}, "banker": {"deals_left", "balance"}}
    for role, parts in needed.items():
        ignores = set(config.role(role).ignores)
        if not parts <= ignores:
            raise ValueError(f"{role}.ignores = {sorted(ignores)}: the exact chain values players blind to "
                             f"{sorted(parts)} (train/configs/table_selfplay/session.yml)")
    if config.num_players != 2:
        raise ValueError(f"num_players = {config.num_players}: the exact chain is heads-up (2)")
    if not config.session_per_bank:
        raise ValueError("session_per_bank = false: the banker would value a sale with its later punting, "
                         "not as the chain does")


def mean_se(values: np.ndarray) -> tuple[float, float]:
    return float(values.mean()), float(values.std(ddof=1) / np.sqrt(len(values)))


def bank_check(chain: Any, play: SessionPlay, initial: int, as_itself: SessionPlay | None = None) -> dict[str, Any]:
    """The first bank's exact value and chances against the engine's sessions (``play``: with the sales
    the chain asks; ``as_itself``: the banker's own, reported beside)."""
    exact = chain.value(initial, play.deals)
    mean, se = mean_se(play.first_net)
    beside = {}
    if as_itself is not None:
        own, own_se = mean_se(as_itself.first_net)
        beside = {"engine_as_itself": own, "engine_as_itself_se": own_se,
                  "engine_as_itself_sale_chance": float((as_itself.first_end == SOLD).mean())}
    return {**beside, "shoot": initial, "deals": play.deals, "exact": exact.value, "engine": mean, "engine_se": se,
            "z": (mean - exact.value) / se if se > 0 else 0.0,
            "pass_chance": exact.pass_chance, "engine_pass_chance": float((play.first_end == PASSED).mean()),
            "sale_chance": exact.sale_chance, "engine_sale_chance": float((play.first_end == SOLD).mean()),
            "expected_deals": exact.expected_deals, "engine_deals": float(play.first_deals.mean()),
            "shoots_reached": exact.states}


OFTEN = 0.001
"""A Shoot "met often" by the sales check: at least this share of the keep-or-sell decisions (400 of the
400,000 of 20,000 twenty-deal episodes)."""


def sales_check(chain: Any, play: SessionPlay, price: int, often: float = OFTEN) -> dict[str, Any]:
    """Each keep-or-sell decision against the exact rule (ties, where keeping is worth exactly the price,
    agree either way; after the episode's last deal keeping is worth nothing more). A decision at a Shoot
    the chain cannot reach (the engine's play and the model's differ there) is counted, not compared.

    The exact rule may answer differently at one Shoot with different deals left, which a banker blind
    to the clock cannot follow: ``blind_best`` is, at each Shoot, the agreement of the best answer that
    reads the Shoot alone (the ceiling of such a banker there). ``regret`` is the chips a decision gives
    up against the exact rule (0 where it agrees), beside those of always keeping and always selling.

    Beside the share of Shoots where 90% of the decisions agree (the bar), two other readings of it:
    among the Shoots met by at least ``often`` of the decisions, and the Shoots where the banker agrees
    as often as a banker blind to the clock can, up to 90% (``min(0.9, blind_best)``)."""
    known = chain.laws.shoots
    inside = np.array([int(s) in known for s in play.bank_shoot], dtype=bool)
    shoot, left, sold = play.bank_shoot[inside], play.bank_left[inside], play.bank_sold[inside]
    cells = {(int(s), int(k)) for s, k in zip(shoot, left)}  # each (Shoot, deals left) valued once
    worth = {(s, k): chain.keep_value(s, k) if k > 0 else 0.0 for s, k in cells}
    keep = np.array([worth[int(s), int(k)] for s, k in zip(shoot, left)])
    best_sell = price > keep
    tie = np.isclose(keep, price, rtol=0.0, atol=1e-9)
    agree = (sold == best_sell) | tie
    regret = np.where(agree, 0.0, np.abs(keep - price))
    asked = np.array([chain.sells(int(s)) for s in shoot], dtype=bool)
    by_shoot = {}
    for s in np.unique(shoot):
        at = shoot == s
        blind = max(float((best_sell | tie)[at].mean()), float((~best_sell | tie)[at].mean()))
        by_shoot[int(s)] = {"decisions": int(at.sum()), "sold": float(sold[at].mean()),
                            "exact_sells": float(best_sell[at].mean()), "agree": float(agree[at].mean()),
                            "blind_best": blind, "regret": float(regret[at].mean()),
                            "keep_value_min": float(keep[at].min()), "keep_value_max": float(keep[at].max())}
    shares = np.array([row["agree"] for row in by_shoot.values()])
    ceiling = np.array([row["blind_best"] for row in by_shoot.values()])
    met_often = np.array([row["decisions"] >= often * len(agree) for row in by_shoot.values()], dtype=bool)
    return {"decisions": int(len(agree)), "outside_the_chain": int((~inside).sum()),
            "outside_shoots": sorted({int(s) for s in play.bank_shoot[~inside]}), "price": price,
            "sold": float(sold.mean()),
            "exact_sells": float(best_sell.mean()), "agree": float(agree.mean()),
            "shoots_met": len(by_shoot), "shoots_agreeing": float((shares >= 0.9).mean()),
            "blind_best_shoots_agreeing": float((ceiling >= 0.9).mean()),
            "often": often, "shoots_met_often": int(met_often.sum()),
            "shoots_met_often_agreeing": float((shares[met_often] >= 0.9).mean()) if met_often.any() else 0.0,
            "shoots_agreeing_to_the_blind_ceiling": float((shares >= np.minimum(0.9, ceiling) - 1e-12).mean()),
            "regret": float(regret.mean()), "regret_always_keep": float(np.maximum(price - keep, 0.0).mean()),
            "regret_always_sell": float(np.maximum(keep - price, 0.0).mean()),
            "as_the_chain_asks": float((asked == sold).mean()), "by_shoot": by_shoot}


def bucket_edges(levels: tuple[int, ...]) -> tuple[int, ...]:
    """The buckets' lower ends: ``BUCKETS`` and each bet level, the Shoot from which its room allows that
    bet, so that the optimum bets one amount throughout a bucket (its bet is measured at one Shoot)."""
    return tuple(sorted(set(BUCKETS) | {int(level) for level in levels if level > 0}))


def bucket_of(shoot: int, edges: tuple[int, ...] = BUCKETS) -> int:
    return int(np.searchsorted(edges, shoot, side="right") - 1)


def optimum_betting(rules: Any, chips: int) -> Policy:
    """The solver's optimum against ``stand17`` weighing a Shoot bet of ``chips`` at each point, solved as if
    posted with room for it (what ``bets_check`` measures a punter's bets against at a Shoot that allows it)."""
    from shoot_pontoon_env.models.resolve import make_policy
    from shoot_pontoon_env.solver.headsup.game_punter import STARTING_CHIPS

    posted = replace(rules, initial_shoot=max(rules.initial_shoot, chips))
    return make_policy("optimal", shoot_bet_levels=(chips,), rules=posted, num_players=2,
                       starting_chips=STARTING_CHIPS)


def bets_check(rules: Any, punter: Policy, banker: Policy, play: SessionPlay, levels: tuple[int, ...],
               laws: Any, workers: int = 1) -> dict[str, Any]:
    """By bucket of Shoot sizes: the punter's bets and the share of the optimum's Shoot part it captures,
    valued at the bucket's most frequent Shoot. The optimum there bets nothing or the largest level that
    Shoot's room allows (``shoot_allowance``) at each point: for a given play a bet's worth is linear in its
    size, so the best of the levels is an end one."""
    from shoot_pontoon_env.models.player import shoot_allowance
    from shoot_pontoon_env.models.resolve import make_policy
    from shoot_pontoon_env.solver.headsup.deal_law import DealLaws
    from shoot_pontoon_env.solver.headsup.game_punter import STARTING_CHIPS

    seat = {"rules": rules, "num_players": 2, "starting_chips": STARTING_CHIPS}
    stand17 = make_policy("stand17", **seat)
    edges = bucket_edges(levels)
    buckets = np.array([bucket_of(int(s), edges) for s in play.bet_shoot])
    at_shoot = {}
    for b in np.unique(buckets):
        shoots, counts = np.unique(play.bet_shoot[buckets == b], return_counts=True)
        at_shoot[int(b)] = int(shoots[np.argmax(counts)])
    allowance = {shoot: shoot_allowance(rules, levels, shoot) for shoot in at_shoot.values()}
    value = {  # each pair's value to the punter at a Shoot, chips per deal
        "punter": DealLaws(rules, punter, stand17), "punter_never": DealLaws(rules, NeverBets(punter), stand17),
        "optimal_never": DealLaws(rules, make_policy("optimal", shoot_bet_levels=(), **seat), stand17),
        "own": laws, "own_never": DealLaws(rules, NeverBets(punter), banker)}
    for law in value.values():
        law.compute(sorted(allowance), workers)
    optimum = {chips: DealLaws(rules, optimum_betting(rules, chips), stand17) for chips in set(allowance.values())
               if chips}  # by the bet each Shoot allows, computed at those Shoots only
    for chips, law in optimum.items():
        law.compute(sorted(shoot for shoot, bet in allowance.items() if bet == chips), workers)
    rows = []
    for b, low in enumerate(edges):
        at = buckets == b
        if not at.any():
            continue
        shoot = at_shoot[b]
        chips = allowance[shoot]
        worth = {name: -law(shoot).banker_gain for name, law in value.items()}
        mine = worth["punter"] - worth["punter_never"]
        best = (-optimum[chips](shoot).banker_gain - worth["optimal_never"]) if chips else 0.0
        rows.append({"bucket": [low, edges[b + 1] - 1 if b + 1 < len(edges) else None], "shoot": shoot,
                     "optimum_bet": chips, "decisions": int(at.sum()),
                     "bets_placed": float((play.bet_chips[at] > 0).mean()),
                     "mean_bet": float(play.bet_chips[at].mean()),
                     "by_point": {str(p): float(play.bet_chips[at & (play.bet_point == p)].mean())
                                  for p in np.unique(play.bet_point[at])},
                     "shoot_part_vs_stand17": mine, "optimum_shoot_part_vs_stand17": best,
                     "captured": mine / best if best > 0 else None,
                     "shoot_part_vs_own_banker": worth["own"] - worth["own_never"],
                     "bets_by_first_card": bets_by_first_card(play, at)})
    return {"levels": list(levels), "buckets": rows}


def bets_by_first_card(play: SessionPlay, at: np.ndarray) -> dict[str, float] | None:
    """The share of the punter's decisions holding one card (before the second card) that bet, by that
    card's rank: a punter that answers differently at two ten-value ranks reads ranks, which the chain
    asks at each (``game_punter``). None where the play records no ranks."""
    if play.bet_rank is None:
        return None
    out = {}
    for rank, label in enumerate(RANKS):
        held = at & (play.bet_rank == rank)
        if held.any():
            out[label] = float((play.bet_chips[held] > 0).mean())
    return out


def reachable_laws(chain: Any, start: int, deals: int, workers: int, say: Any) -> int:
    """The law of every Shoot a bank posted at ``start`` can reach within the episode, whatever its
    holder sells (what every keep-or-sell decision's exact value reads), level by level in ``workers``
    processes; returns how many."""
    frontier, seen = {start}, {start}
    for level in range(deals):
        chain.laws.compute(sorted(frontier), workers)
        say(f"laws of the Shoots reached in {level} deals: {len(frontier)} ({len(seen)} in all)")
        if level == deals - 1:
            break
        frontier = {after for shoot in frontier for after, _ in chain.steps(shoot) if after > 0} - seen
        seen |= frontier
    return len(seen)


def check_run(run: Path, episodes: int, seed: int, workers: int = 2, stream=sys.stderr) -> dict[str, Any]:
    from shoot_pontoon_env.models.resolve import make_policy
    from shoot_pontoon_env.solver.headsup.deal_law import DealLaws
    from shoot_pontoon_env.solver.headsup.game_punter import STARTING_CHIPS
    from shoot_pontoon_env.solver.session.chain import BankChain

    from .table_selfplay import read_run_config

    begin = time.perf_counter()
    config = read_run_config(run)
    check_blind(config)
    rules = get_rules(config.rules)
    say = lambda text: print(f"session_check: {text} (after {time.perf_counter() - begin:.0f} s)",  # noqa: E731
                             file=stream, flush=True)
    say(f"playing {episodes:,} episodes of {config.deals_per_episode} deals")
    play = play_pair(run, config, episodes, seed)
    seat = {"rules": rules, "num_players": 2, "starting_chips": STARTING_CHIPS}
    punter = make_policy(str(run / "punter"), role="punter", **seat)
    banker = make_policy(str(run / "banker"), role="banker", **seat)
    laws = DealLaws(rules, punter, banker)
    chain = BankChain(rules, punter, banker, laws)
    say(f"playing {episodes:,} episodes again, the banker selling where the chain asks it to")
    asked = play_pair(run, config, episodes, seed, sells=chain.sells)
    say("the chain: each deal's law at every Shoot the episodes can reach")
    reachable_laws(chain, rules.initial_shoot, config.deals_per_episode, workers, say)
    out: dict[str, Any] = {"run": str(run), "episodes": episodes, "seed": seed, "deals": config.deals_per_episode,
                           "bank": bank_check(chain, asked, rules.initial_shoot, play)}
    say("the sales")
    out["sales"] = sales_check(chain, play, rules.bank_sale_price)
    say("the Shoot bets")
    out["bets"] = bets_check(rules, punter, banker, play, _bet_levels(punter), laws, workers)
    out["laws"] = {"shoots": len(laws._laws), "classes": laws.classes, "seconds": laws.seconds}
    out["seconds"] = time.perf_counter() - begin
    say("done")
    return out


def _bet_levels(punter: Policy) -> tuple[int, ...]:
    """The Shoot bets (chips) the punter's action table holds."""
    return tuple(e.amount for e in punter.action_table.entries if e.kind == ActionKind.SHOOT_BET and e.amount > 0)


def _main(argv: list[str]) -> int:
    parser = Parser(prog="python -m train.session_check", description=__doc__.split("\n\n")[0])
    parser.add_argument("run", metavar="RUN", help="a session self-play run's folder "
                                                   "(runs/table_selfplay_session-seed0)")
    parser.add_argument("--episodes", type=int, default=20_000, help="episodes played at the engine (20,000)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed of the episodes' deals (0)")
    parser.add_argument("--workers", type=int, default=2, help="processes computing the deals' laws (2)")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    args = parser.parse_args(argv)
    run = Path(args.run)
    if args.workers < 1:
        raise UsageError(f"argument --workers: {args.workers}: expected at least 1")
    if not 0 <= args.seed < 2**32:
        raise UsageError(f"argument --seed: {args.seed}: expected an int in 0..2**32-1")
    if args.episodes < 2:
        raise UsageError(f"argument --episodes: {args.episodes}: expected at least 2")
    try:
        from .table_selfplay import read_run_config

        check_blind(read_run_config(run))
        for role in ("punter", "banker"):
            if not (run / role / "model.zip").is_file():
                raise ValueError(f"{run}: no final {role} (RUN/{role}/model.zip): a finished run is checked")
        report = check_run(run, args.episodes, args.seed, args.workers)
    except (ValueError, OSError) as error:
        raise UsageError(str(error)) from None
    (run / "session_check.json").write_text(json.dumps(report, indent=2) + "\n")
    if args.json:
        print(json.dumps(report))
    else:
        print(summary(report))
    return 0


def summary(report: dict[str, Any]) -> str:
    bank, sales = report["bank"], report["sales"]
    lines = [f"the first bank (Shoot {bank['shoot']}, {bank['deals']} deals): exact {bank['exact']:+.4f} chips, "
             f"engine {bank['engine']:+.4f} +/- {bank['engine_se']:.4f} (z {bank['z']:+.2f}); passes "
             f"{bank['pass_chance']:.4f} (engine {bank['engine_pass_chance']:.4f}), sold {bank['sale_chance']:.4f} "
             f"(engine {bank['engine_sale_chance']:.4f}); the banker selling as itself at the engine "
             f"{bank['engine_as_itself']:+.4f} +/- {bank['engine_as_itself_se']:.4f}",
             f"sales: {sales['decisions']:,} decisions, sold {sales['sold']:.4f}, the exact rule sells "
             f"{sales['exact_sells']:.4f}; agree {sales['agree']:.4f} of decisions, at {sales['shoots_agreeing']:.2%} "
             f"of the {sales['shoots_met']} Shoots met (90% of decisions there; a banker blind to the clock at "
             f"{sales['blind_best_shoots_agreeing']:.2%} at best; at {sales['shoots_met_often_agreeing']:.2%} of the "
             f"{sales['shoots_met_often']} met by {sales['often']:.1%} of the decisions or more; as well as a blind "
             f"banker can at {sales['shoots_agreeing_to_the_blind_ceiling']:.2%}); chips given up a decision {sales['regret']:.4f} "
             f"(always keeping {sales['regret_always_keep']:.4f}, always selling {sales['regret_always_sell']:.4f})"]
    for row in report["bets"]["buckets"]:
        captured = "n/a" if row["captured"] is None else f"{row['captured']:.3f}"
        lines.append(f"Shoot {row['bucket']} (at {row['shoot']}): bets placed {row['bets_placed']:.3f}, mean "
                     f"{row['mean_bet']:.2f} chips; Shoot part vs stand17 {row['shoot_part_vs_stand17']:+.4f}, "
                     f"optimum's {row['optimum_shoot_part_vs_stand17']:+.4f}, captured {captured}; vs its own "
                     f"banker {row['shoot_part_vs_own_banker']:+.4f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from shoot_pontoon_env.cli import run as run_cli

    return run_cli(_main, argv)


if __name__ == "__main__":
    raise SystemExit(main())

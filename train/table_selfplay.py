"""Self-play at whole tables on the batched engine: every learner seat's decisions are training
samples, a punter network and a banker network learn together, against a league of their own frozen
snapshots and rule-based anchors.

``python -m train.table_selfplay [--config train/configs/table_selfplay/shoot.yml] [--set key=value ...]
[--overwrite | --resume]``

The tables come in groups (``groups``), each a ``multiagent.batched_env``: a group's ``players`` are
anchors the kernel plays (``stand17``, ``tips``, ``dealer`` ...); its other seats are the league's.
At every new episode each league seat of a group with ``frozen_share > 0`` is held, with that chance,
by a frozen snapshot (the newest with probability ``latest_share``, otherwise any earlier one), and
otherwise by the learner: fictitious self-play, which keeps the two roles from chasing each other in
cycles. Snapshots play inside the trainer, batched across tables (their seats' chips are not trained
on); the learner's seats act with the role's network (a punter's decisions or the banker's), and
each seat's rewards reach its own decisions (``train/seat_samples.py``).

The trainer is a lean PPO (clipped ratio, GAE with gamma 1, value loss, entropy bonus, advantage
normalisation per minibatch or per set of legal actions, gradient clipping) around sb3-contrib's ``MaskableActorCriticPolicy``,
so each role's network is saved as a MaskablePPO model of its single-seat env: ``RUN/punter`` is a
``ShootPontoon-v0`` model and ``RUN/banker`` a ``ShootPontoonBanker-v0`` one, which ``python -m
evaluate``, ``zoo:``, ``play`` and the league itself load as any other (safely: only tensors are read).
After every generation both are saved under ``RUN/generations/N`` and measured paired on fixed hands:
the punter against the optimal agent at ``ShootPontoon-v0``'s default table, the banker against the
``dealer`` banker at ``ShootPontoonBanker-v0``'s (``tips`` punters).

A run folder holds one run: a second run into it is refused unless ``--overwrite`` (which removes the
earlier run's files first); ``--resume`` continues an interrupted run after its last complete
generation (``train/table_folder.py``). Losses, entropy, KL and the measurements go to TensorBoard
(``RUN/tensorboard``). Every configuration key: docs/TRAINING.md.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from shoot_pontoon_env.actions import ActionKind
from shoot_pontoon_env.cli import Parser, UsageError, run
from shoot_pontoon_env.engine.table import MAX_PLAYERS, MIN_PLAYERS
from shoot_pontoon_env.multiagent import batched_env
from shoot_pontoon_env.rules import get_rules
from shoot_pontoon_env.seat import encoding as enc
from shoot_pontoon_env.seat.action_table import banker_action_table

from . import table_folder as folder_files
from .config import apply_overrides, check_run_name, claim_folder, read_mapping
from .seat_roles import CHIP_SCALE, IGNORABLE, RoleSpace, fold_scale, role_space
from .seat_samples import ROLES, BankDecision, Batch, DealMeans, SeatSamples

LOGGED = ("policy_gradient_loss", "value_loss", "entropy_loss", "loss", "approx_kl", "clip_fraction")
"""What an update logs to TensorBoard under ``ROLE/NAME`` (SB3's PPO's ``train/NAME``), with
``explained_variance``, ``learning_rate``, ``n_updates`` and ``samples``."""
MASKED = -1e8
"""The logit of an illegal action (sb3-contrib's MaskableCategorical uses the same)."""
LEARNER = -1
"""``owners[t, s]``: the learner holds seat s of table t this episode (else a snapshot's number)."""


ADVANTAGE_NORMS = ("minibatch", "legal_actions")
"""``RoleSettings.advantage_norm``'s values."""


def normalise_by_legal_actions(advantages: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Advantages normalised (mean 0, spread 1) within each group of samples that share their legal
    actions; a group of one sample, or of equal advantages, gets zeros."""
    _, group = np.unique(masks, axis=0, return_inverse=True)
    group = group.reshape(-1)
    count = np.bincount(group).astype(np.float64)
    mean = np.bincount(group, advantages) / count
    centred = advantages - mean[group]
    spread = np.sqrt(np.bincount(group, centred * centred) / np.maximum(count - 1.0, 1.0))
    return (centred / (spread[group] + 1e-8)).astype(np.float32)


@dataclass
class RoleSettings:
    """One role's network and PPO settings (the ``punter`` and ``banker`` blocks of the config)."""

    net_arch: list[int] = field(default_factory=lambda: [64, 64])
    """Hidden layers of the policy and value networks (each its own)."""
    observation: str = "compact"
    """``compact`` (a punter seat's decision features; punter only) or ``flat`` (the env's row)."""
    learning_rate: float = 1e-3
    """Adam's step size at the start."""
    lr_schedule: str = "linear"
    """``constant`` or ``linear`` (to zero at the run's end)."""
    ent_coef: float = 0.03
    """Weight of the entropy bonus in the loss."""
    gae_lambda: float = 0.7
    """GAE's lambda (gamma is 1: every chip of the episode counts)."""
    clip_range: float = 0.2
    """PPO's clip of the probability ratio."""
    vf_coef: float = 0.5
    """Weight of the value loss in the loss."""
    max_grad_norm: float = 0.5
    """Gradients are clipped to this norm."""
    n_epochs: int = 8
    """Passes over each update's samples."""
    minibatch: int = 2048
    """Samples of one gradient step."""
    chip_scale: float = CHIP_SCALE
    """Factor of a flat row's chip counts (in base stakes) as the network reads them: small keeps a
    table of big stakes from saturating the first layer; large lets the network tell Shoots apart
    (the default reads Shoots of 90 and 100 chips at a stake of 40 0.0125 apart). Folded into the
    saved model, which reads the env's own row."""
    bank_gae_lambda: float | None = None
    """GAE's lambda at the banker's keep/sell decision (none: ``gae_lambda``; banker only). A low one
    values keeping by the value network at the next decision instead of by every chip of the rest of
    the tenure; in the big session game 0 and 0.7 kept at every Shoot, and 1 (with ``advantage_norm:
    legal_actions``) moved the sale most (docs/RESULTS.md)."""
    bank_ent_coef: float | None = None
    """Weight of the entropy bonus at the banker's keep/sell decision (none: ``ent_coef``; banker only).
    A saved banker is played at its most likely answer, so training may keep both answers sampled: where
    the right one changes as the punters learn (keeping pays against early punters, selling against
    later ones), a decision that stopped sampling the other cannot see it."""
    bank_deal_window: int | None = None
    """None, or train the banker's keep/sell decision by its return along the tenure with each kept
    deal's chips replaced by their running mean (over about this many kept deals) at the Shoot, reserve
    and whether a deal is left (``seat_samples.DealMeans``; banker only, in place of ``bank_gae_lambda``):
    the sale then learns from the tenure's path, not from the luck of its cards."""
    advantage_norm: str = "minibatch"
    """``minibatch`` (SB3's PPO: advantages normalised over each minibatch) or ``legal_actions``
    (normalised over the update's samples separately for each set of legal actions, so a decision
    whose advantages are small beside the others', as the keep/sell one beside the draws, keeps its
    weight against the entropy bonus)."""
    ignores: list[str] = field(default_factory=list)
    """Parts of the row the network is blind to (``IGNORABLE``): ``deals_left`` (the episode's clock)
    and, for a flat row, ``balance`` (the seat's own chips). A network blind to both plays every deal
    of a session by the same rule at the same Shoot, as the session's exact chain
    (``solver/session/chain.py``) models a player; the saved model has the blindness folded in."""

    def check(self, role: str) -> None:
        if self.observation not in ("flat", "compact") or (role == "banker" and self.observation == "compact"):
            allowed = ["flat"] if role == "banker" else ["flat", "compact"]
            raise ValueError(f"{role}.observation = {self.observation!r}: expected one of {allowed}")
        if self.lr_schedule not in ("constant", "linear"):
            raise ValueError(f"{role}.lr_schedule = {self.lr_schedule!r}: expected 'constant' or 'linear'")
        if not (isinstance(self.net_arch, list) and self.net_arch
                and all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 4096 for n in self.net_arch)):
            raise ValueError(f"{role}.net_arch = {self.net_arch!r}: expected a list of layer sizes in 1..4096")
        for name, low, high in (("learning_rate", 0.0, 1.0), ("ent_coef", 0.0, 10.0), ("gae_lambda", 0.0, 1.0),
                                ("clip_range", 0.0, 1.0), ("vf_coef", 0.0, 100.0), ("max_grad_norm", 0.0, 1e6),
                                ("bank_gae_lambda", 0.0, 1.0), ("bank_ent_coef", 0.0, 10.0)):
            value = getattr(self, name)
            if value is None and name in ("bank_gae_lambda", "bank_ent_coef"):
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                raise ValueError(f"{role}.{name} = {value!r}: expected a number in {low}..{high}")
        for name in ("n_epochs", "minibatch"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{role}.{name} = {value!r}: expected an int >= 1")
        window = self.bank_deal_window
        if window is not None and (isinstance(window, bool) or not isinstance(window, int) or window < 1):
            raise ValueError(f"{role}.bank_deal_window = {window!r}: expected null or an int >= 1")
        for name in ("bank_gae_lambda", "bank_ent_coef", "bank_deal_window"):
            if getattr(self, name) is not None and role != "banker":
                raise ValueError(f"{role}.{name} = {getattr(self, name)!r}: only the banker decides whether to keep "
                                 "the bank")
        if window is not None and self.bank_gae_lambda is not None:
            raise ValueError(f"{role}.bank_gae_lambda = {self.bank_gae_lambda!r} and bank_deal_window = {window!r}: "
                             "the deal means replace the keep/sell decision's GAE (set one of the two)")
        if self.advantage_norm not in ADVANTAGE_NORMS:
            raise ValueError(f"{role}.advantage_norm = {self.advantage_norm!r}: expected one of {list(ADVANTAGE_NORMS)}")
        scale = self.chip_scale
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not 0.0 < scale <= 100.0:
            raise ValueError(f"{role}.chip_scale = {scale!r}: expected a number in (0, 100]")
        if self.observation != "flat" and scale != CHIP_SCALE:
            raise ValueError(f"{role}.chip_scale = {scale!r}: a {self.observation} row scales its own chips "
                             "(chip_scale is for a flat row)")
        allowed = IGNORABLE if self.observation == "flat" else IGNORABLE[:1]
        if not isinstance(self.ignores, list) or any(part not in allowed for part in self.ignores):
            raise ValueError(f"{role}.ignores = {self.ignores!r}: expected a list of names from {list(allowed)} "
                             f"(a {self.observation} row)")


def default_groups() -> list[dict[str, Any]]:
    return [
        {"tables": 192, "first_banker": "random", "frozen_share": 0.5},
        {"tables": 32, "players": {0: "stand17", 2: "tips", 3: "tips"}},
        {"tables": 32, "players": {2: "tips", 3: "tips"}},
        {"tables": 32, "players": {0: "dealer"}},
    ]


@dataclass
class TableSelfPlayConfig:
    """The fields of ``python -m train.table_selfplay``'s YAML and ``--set`` (docs/TRAINING.md)."""

    rules: str = "shoot"
    """The rules preset of every table (or a mapping of changes to one, as ``batched_env`` takes)."""
    num_players: int = 4
    """Seats at every table, the banker's included (2..10)."""
    stake_levels: list[int] | None = None
    """The punters' stakes in base stakes (none: the env's default)."""
    shoot_bet_levels: list[int] | None = None
    """The Shoot bets a punter may place (none: the env's default)."""
    buy_levels: list[float] | None = None
    """The buys a punter may make, as fractions of its stake (none: the env's default)."""
    deals_per_episode: int = 1
    """Deals of one episode (more than one: the bank turns over and may be sold)."""
    session_per_bank: bool = False
    """Each bank's tenure is an episode of its own to the learners: where the bank changes hands (sold,
    or passed when a deal empties the Shoot) every seat's trajectory ends, the sale's chips its last
    reward, and the table plays on with a new bank for the deals left. The banker then values keeping
    the bank as the session's chain does (its profit until the bank passes, is sold or the deals run
    out), not with what it would make as a punter afterwards."""
    groups: list[dict[str, Any]] = field(default_factory=default_groups)
    """Each: ``tables``, optional ``players`` (seat -> anchor the kernel plays), ``first_banker``
    (a seat or ``random``; default 0), ``frozen_share`` (default 0: only the learner), ``initial_shoot``
    (default: the rules'; the Shoot each new bank of the group's tables posts). A group posting another
    Shoot is an exploring start: its sessions meet Shoot sizes that the posted one reaches rarely, at
    which the deals, the rows and the value of keeping the bank are the same game's."""
    total_decisions: int = 20_000_000
    """Learner decisions of both roles together; at least ``generations`` whole rollouts (a
    generation ends with the rollout that reaches its share, so a smaller budget is refused)."""
    generations: int = 10
    """Snapshots of both networks, evenly spaced in decisions: each joins the league, is saved under
    ``generations/N`` and measured."""
    rollout_steps: int = 32
    """Steps of every table between updates."""
    latest_share: float = 0.5
    """Chance that a frozen seat gets the newest snapshot; otherwise any snapshot."""
    punter: dict[str, Any] = field(default_factory=dict)
    """The punter's RoleSettings fields (the defaults where absent)."""
    banker: dict[str, Any] = field(default_factory=lambda: {"net_arch": [128, 128], "observation": "flat",
                                                            "gae_lambda": 0.95, "ent_coef": 0.01,
                                                            "minibatch": 1024})
    """The banker's RoleSettings fields; a ``--set banker.KEY=VALUE`` changes one and keeps these."""
    eval_hands: int = 20_000
    """Hands of each per-generation measurement (the same seeded hands every generation)."""
    eval_seed: int = 1_000_000
    """The first seed of those hands."""
    seed: int = 0
    """Seeds the networks, the deals and the trainer's sampling; part of the run folder's name."""
    log_dir: str = "runs"
    """The run is written to ``log_dir/run_name-seedS``."""
    run_name: str = "table_selfplay"
    """The run folder's name, before ``-seedS``."""
    torch_threads: int = 1
    """Threads torch may use (one is fastest for these small networks)."""

    def __post_init__(self) -> None:
        try:
            get_rules(self.rules)
        except (ValueError, TypeError) as error:
            raise ValueError(f"rules = {self.rules!r}: {error}") from None
        if (isinstance(self.num_players, bool) or not isinstance(self.num_players, int)
                or not MIN_PLAYERS <= self.num_players <= MAX_PLAYERS):
            raise ValueError(f"num_players = {self.num_players!r}: expected an int in "
                             f"{MIN_PLAYERS}..{MAX_PLAYERS}")
        for name in ("total_decisions", "generations", "rollout_steps", "eval_hands", "torch_threads",
                     "deals_per_episode"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} = {value!r}: expected an int >= 1")
        if not isinstance(self.session_per_bank, bool):
            raise ValueError(f"session_per_bank = {self.session_per_bank!r}: expected true or false")
        for name in ("seed", "eval_seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**32:
                raise ValueError(f"{name} = {value!r}: expected an int in 0..2**32-1")
        for name in ("log_dir", "run_name"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise ValueError(f"{name} = {getattr(self, name)!r}: expected a folder name")
        if not isinstance(self.latest_share, (int, float)) or not 0.0 <= self.latest_share <= 1.0:
            raise ValueError(f"latest_share = {self.latest_share!r}: expected a number in 0..1")
        if not isinstance(self.groups, list) or not self.groups:
            raise ValueError(f"groups = {self.groups!r}: expected a list of table groups")
        for i, group in enumerate(self.groups):
            if not isinstance(group, dict):
                raise ValueError(f"groups[{i}] = {group!r}: expected a mapping with tables, players, ...")
            unknown = sorted(set(group) - {"tables", "players", "first_banker", "frozen_share", "initial_shoot"})
            if unknown:
                raise ValueError(f"groups[{i}]: unknown key(s) {unknown}: expected tables, players, first_banker, "
                                 "frozen_share, initial_shoot")
            posted = group.get("initial_shoot", 1)
            if isinstance(posted, bool) or not isinstance(posted, int) or posted < 1:
                raise ValueError(f"groups[{i}].initial_shoot = {posted!r}: expected a whole number of chips >= 1")
            share = group.get("frozen_share", 0.0)
            if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0.0 <= share < 1.0:
                raise ValueError(f"groups[{i}].frozen_share = {share!r}: expected a number in 0..1 (1 excluded: "
                                 "a table needs a learner)")
        check_run_name(self.run_name)
        for role in ROLES:
            self.role(role).check(role)

    def role(self, role: str) -> RoleSettings:
        block = getattr(self, role)
        if not isinstance(block, dict):
            raise ValueError(f"{role} = {block!r}: expected a mapping of RoleSettings fields")
        known = {f.name for f in dataclasses.fields(RoleSettings)}
        unknown = sorted(set(block) - known)
        if unknown:
            raise ValueError(f"{role}: unknown field(s) {unknown}: expected names from {sorted(known)}")
        return RoleSettings(**block)

    @property
    def run_dir(self) -> Path:
        return Path(self.log_dir) / f"{self.run_name}-seed{self.seed}"

    def check_budget(self, num_tables: int) -> None:
        """A generation ends with the first rollout that reaches its share of ``total_decisions``, and a
        rollout collects up to ``num_tables x rollout_steps`` learner decisions (one per table and
        step): a budget below ``generations`` such rollouts would be overrun, each generation a whole
        rollout (1,000 asked of 10 generations at 288 tables once trained 73,974), so it is refused."""
        rollout = num_tables * self.rollout_steps
        least = self.generations * rollout
        if self.total_decisions < least:
            raise ValueError(f"total_decisions = {self.total_decisions}: expected at least {least} = "
                             f"generations {self.generations} x rollout_steps {self.rollout_steps} x "
                             f"{num_tables} tables (a generation ends with a whole rollout of every table); "
                             "ask for more, or for fewer generations, rollout_steps or tables")

    def table_kwargs(self) -> dict[str, Any]:
        """The whole table's arguments every group shares."""
        kwargs: dict[str, Any] = {"rules": self.rules, "num_players": self.num_players,
                                  "deals_per_episode": self.deals_per_episode}
        for name in ("stake_levels", "shoot_bet_levels", "buy_levels"):
            if getattr(self, name) is not None:
                kwargs[name] = getattr(self, name)
        return kwargs

    def role_env_kwargs(self, role: str) -> dict[str, Any]:
        """The single-seat env a role's model is saved for (the same table)."""
        kwargs: dict[str, Any] = {"rules": self.rules, "num_players": self.num_players}
        if role == "punter":
            for name in ("stake_levels", "shoot_bet_levels", "buy_levels"):
                if getattr(self, name) is not None:
                    kwargs[name] = getattr(self, name)
        return kwargs


def load_table_selfplay_config(path: str | Path | None, overrides: list[str] | None = None,
                               data: dict[str, Any] | None = None) -> TableSelfPlayConfig:
    """YAML of TableSelfPlayConfig fields (or their ``data``), then ``key=value`` overrides
    (``punter.learning_rate=3e-4``)."""
    if data is None:
        data = read_mapping(path, "self-play fields") if path is not None else {}
    apply_overrides(data, overrides)
    known = {f.name for f in dataclasses.fields(TableSelfPlayConfig)}
    unknown = sorted(str(k) for k in set(data) - known)
    if unknown:
        raise ValueError(f"unknown self-play field(s) {unknown}: expected names from {sorted(known)}")
    if "banker" in data and isinstance(data["banker"], dict):  # overrides add to the default banker block
        data["banker"] = {**TableSelfPlayConfig().banker, **data["banker"]}
    return TableSelfPlayConfig(**data)


def read_run_config(run: Path) -> TableSelfPlayConfig:
    """The configuration a run folder's ``table_selfplay.yaml`` records, read with YAML's safe loader and
    checked as ``--config`` is: a damaged or foreign file is one ``ValueError`` line naming it."""
    path = run / folder_files.CONFIG_FILE
    if not path.is_file():
        raise ValueError(f"{run}: no {folder_files.CONFIG_FILE}: expected a folder written by python -m "
                         "train.table_selfplay")
    data = read_mapping(path, "self-play fields", label="")
    try:
        return load_table_selfplay_config(None, [], data)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{path}: {error}") from None


# --------------------------------------------------------------------------- the learners
class Learner:
    """One role's network (a MaskablePPO model of the role's single-seat env, trained here) and its
    PPO update."""

    def __init__(self, space: RoleSpace, settings: RoleSettings, seed: int) -> None:
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import DummyVecEnv

        self.space, self.settings = space, settings
        self.model = MaskablePPO("MlpPolicy", DummyVecEnv([space.make_env]), learning_rate=settings.learning_rate,
                                 policy_kwargs={"net_arch": list(settings.net_arch)}, seed=seed, device="cpu",
                                 verbose=0)
        self.policy = self.model.policy
        self.bank_actions: list[int] = []
        """The keep and sell actions, where the keep/sell decision has its own entropy weight."""
        if settings.bank_ent_coef is not None:
            self.bank_actions = list(keep_and_sell())
        self.decisions = 0
        self.updates = 0

    def forward(self, inputs: Any, masks: Any) -> tuple[Any, Any]:
        """Masked logits (SB3's -1e8 where illegal, as its masked policy applies) and values: the
        saved model computes the same, without SB3's distribution objects, which cost more than
        the network at these batch sizes."""
        policy = self.policy
        latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(inputs))
        logits = policy.action_net(latent_pi).masked_fill(~masks, MASKED)
        return logits, policy.value_net(latent_vf).flatten()

    def act(self, inputs: np.ndarray, masks: np.ndarray, rng: np.random.Generator
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Sampled actions (role indices; Gumbel-max with the trainer's Generator), their
        log-probabilities and the values."""
        import torch

        with torch.no_grad():
            logits, values = self.forward(torch.as_tensor(inputs), torch.as_tensor(masks))
            log_probs = torch.log_softmax(logits, dim=1)
            noise = torch.as_tensor(rng.random(logits.shape, dtype=np.float32)).clamp_(1e-12, 1.0)
            actions = torch.argmax(logits - torch.log(-torch.log(noise)), dim=1)
            logp = log_probs.gather(1, actions[:, None]).squeeze(1)
        return actions.numpy(), logp.numpy(), values.numpy()

    def update(self, batch: Batch, progress: float, rng: np.random.Generator) -> dict[str, float]:
        """PPO epochs over the batch; ``progress`` (0..1) of the run sets a linear learning rate.
        Returns what SB3's PPO logs of an update (means over its minibatches), under SB3's names."""
        import torch

        s = self.settings
        rate = s.learning_rate * (1.0 - progress if s.lr_schedule == "linear" else 1.0)
        for group in self.policy.optimizer.param_groups:
            group["lr"] = rate
        self.policy.set_training_mode(True)
        obs, masks = torch.as_tensor(batch.obs), torch.as_tensor(batch.masks)
        actions = torch.as_tensor(batch.actions)
        by_group = s.advantage_norm == "legal_actions"
        advantages = torch.as_tensor(normalise_by_legal_actions(batch.advantages, batch.masks) if by_group
                                     else batch.advantages)
        old_logp = torch.as_tensor(batch.logp)
        returns = torch.as_tensor(batch.returns)
        n = len(batch)
        ent_weights = None
        if self.bank_actions:
            at_bank = torch.as_tensor(batch.masks[:, self.bank_actions].all(axis=1))
            ent_weights = torch.where(at_bank, float(s.bank_ent_coef), float(s.ent_coef)).float()
        logged: dict[str, list[float]] = {name: [] for name in LOGGED}
        for _ in range(s.n_epochs):
            order = rng.permutation(n)
            for start in range(0, n, s.minibatch):
                pick = order[start:start + s.minibatch]
                if len(pick) < 2:
                    continue
                logits, values = self.forward(obs[pick], masks[pick])
                log_probs = torch.log_softmax(logits, dim=1)
                logp = log_probs.gather(1, actions[pick][:, None]).squeeze(1)
                entropy = -(log_probs.exp() * log_probs).sum(dim=1)
                adv = advantages[pick]
                if not by_group:
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                ratio = torch.exp(logp - old_logp[pick])
                policy_loss = -torch.min(adv * ratio, adv * torch.clamp(ratio, 1 - s.clip_range, 1 + s.clip_range)).mean()
                value_loss = torch.nn.functional.mse_loss(returns[pick], values)
                bonus = (s.ent_coef * entropy.mean() if ent_weights is None
                         else (ent_weights[pick] * entropy).mean())
                loss = policy_loss + s.vf_coef * value_loss - bonus
                self.policy.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.policy.parameters(), s.max_grad_norm)
                self.policy.optimizer.step()
                with torch.no_grad():
                    log_ratio = logp - old_logp[pick]
                    for name, value in (("policy_gradient_loss", policy_loss), ("value_loss", value_loss),
                                        ("entropy_loss", -entropy.mean()), ("loss", loss),
                                        ("approx_kl", ((torch.exp(log_ratio) - 1) - log_ratio).mean()),
                                        ("clip_fraction",
                                         (torch.abs(ratio - 1) > s.clip_range).float().mean())):
                        logged[name].append(float(value))
        self.policy.set_training_mode(False)
        self.updates += 1
        stats = {name: float(np.mean(values)) if values else 0.0 for name, values in logged.items()}
        spread = float(np.var(batch.returns))
        unexplained = float(np.var(batch.returns - batch.values))
        stats["explained_variance"] = 1.0 - unexplained / spread if spread > 0 else 0.0
        stats.update(learning_rate=rate, n_updates=self.updates, samples=n)
        return stats

    def frozen(self) -> Learner:
        """A copy that no later update changes (a league snapshot)."""
        twin = copy.copy(self)
        twin.policy = copy.deepcopy(self.policy)
        twin.model = None
        return twin

    def best(self, inputs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The most likely legal action (a snapshot at the table plays deterministically)."""
        import torch

        with torch.no_grad():
            logits, _ = self.forward(torch.as_tensor(inputs), torch.as_tensor(masks))
        return torch.argmax(logits, dim=1).numpy()

    def save_state(self, path: Path) -> None:
        """The network as it trains (inputs scaled) with its optimizer: what a resume continues."""
        self.model.num_timesteps = self.decisions
        path.parent.mkdir(parents=True, exist_ok=True)
        self.model.save(path)

    def restore(self, path: Path) -> None:
        """The weights and optimizer state of :meth:`save_state`'s file, read without unpickling
        (``train.run.load_checkpoint``: one that does not fit this network is refused, naming it)."""
        from .run import load_checkpoint

        load_checkpoint(self.model, path)
        self.policy.set_training_mode(False)

    def save(self, folder: Path, config: TableSelfPlayConfig, generation: int) -> Path:
        """``folder/model.zip`` with the ``config.yaml`` the safe loader reads."""
        folder.mkdir(parents=True, exist_ok=True)
        record = {"env_id": self.space.env_id, "env_kwargs": self.space.env_kwargs, "algo": "maskable_ppo",
                  "observation": self.space.observation, "net_arch": list(self.settings.net_arch),
                  "trainer": "train.table_selfplay", "role": self.space.role, "generation": generation,
                  "decisions": self.decisions, "seed": config.seed}
        (folder / "config.yaml").write_text(yaml.safe_dump(record, sort_keys=False))
        self.model.num_timesteps = self.decisions
        if self.space.scale is None:
            self.model.save(folder / "model.zip")
        else:  # the saved network reads the env's raw row: the input scale goes into its first layers
            state = copy.deepcopy(self.policy.state_dict())
            fold_scale(self.policy, self.space.scale)
            try:
                self.model.save(folder / "model.zip")
            finally:
                self.policy.load_state_dict(state)
        return folder / "model.zip"


def keep_and_sell() -> tuple[int, int]:
    """The keep and sell actions' indices in the banker's env."""
    kinds = banker_action_table().indices_by_kind()
    (keep,), (sell,) = kinds[ActionKind.KEEP_BANK], kinds[ActionKind.SELL_BANK]
    return keep, sell


def bank_decision(settings: RoleSettings) -> BankDecision | None:
    """How the banker's keep/sell decision is trained apart from its draws (none: as they are),
    marked by its actions in the banker's env."""
    if settings.bank_gae_lambda is None and settings.bank_deal_window is None:
        return None
    keep, sell = keep_and_sell()
    lam = None if settings.bank_gae_lambda is None else float(settings.bank_gae_lambda)
    means = None if settings.bank_deal_window is None else DealMeans(settings.bank_deal_window)
    return BankDecision(keep, sell, lam, means)


def bank_keys(rows: np.ndarray) -> np.ndarray:
    """The banker's states as ``DealMeans`` keys them, read from its flat rows: the Shoot, the reserve
    (in base stakes) and whether no deal is left (keeping the bank then plays none)."""
    return np.stack([rows[:, enc.CHIP_SHOOT], rows[:, enc.CHIP_RESERVE],
                     (rows[:, enc.EPISODE.start] <= 0.0).astype(np.float64)], axis=1).astype(np.float64)


# --------------------------------------------------------------------------- the tables
def rules_mapping(rules: Any) -> dict[str, Any]:
    """The run's ``rules`` (a preset's name or a mapping of rule fields) as a mapping to change fields of."""
    return {"preset": rules} if isinstance(rules, str) else dict(rules)


class TableGroups:
    """Every group's batched env, numbered as one range of tables, with each seat's holder."""

    def __init__(self, config: TableSelfPlayConfig) -> None:
        kwargs = config.table_kwargs()
        self.envs, self.first, self.shares = [], [], []
        start = 0
        for i, group in enumerate(config.groups):
            players = {int(s): p for s, p in (group.get("players") or {}).items()}
            mine = dict(kwargs)
            if "initial_shoot" in group:
                mine["rules"] = {**rules_mapping(kwargs["rules"]), "initial_shoot": group["initial_shoot"]}
            try:
                env = batched_env(group.get("tables"), first_banker=group.get("first_banker", 0), players=players,
                                  **mine)
            except ValueError as error:
                raise ValueError(f"groups[{i}]: {error}") from None
            self.envs.append(env)
            self.first.append(start)
            self.shares.append(float(group.get("frozen_share", 0.0)))
            start += env.num_tables
        self.num_tables = start
        self.num_players = config.num_players
        self.seat_table = self.envs[0].action_table
        self.fixed = np.zeros((start, config.num_players), dtype=np.bool_)
        for env, first in zip(self.envs, self.first):
            self.fixed[first:first + env.num_tables] = ~np.asarray(env.learners)
        self.owners = np.full((start, config.num_players), LEARNER, dtype=np.int64)


class TableSelfPlay:
    def __init__(self, config: TableSelfPlayConfig) -> None:
        import torch

        torch.set_num_threads(config.torch_threads)
        torch.manual_seed(config.seed)
        self.config = config
        self.tables = TableGroups(config)
        config.check_budget(self.tables.num_tables)
        seat_table = self.tables.seat_table
        self.settings = {role: config.role(role) for role in ROLES}
        self.spaces = {role: role_space(role, seat_table, config.role_env_kwargs(role),
                                        self.settings[role].observation, self.settings[role].ignores,
                                        self.settings[role].chip_scale)
                       for role in ROLES}
        self.learners = {role: Learner(self.spaces[role], self.settings[role], config.seed) for role in ROLES}
        self.snapshots: list[dict[str, Any]] = []
        self.rng = np.random.default_rng([config.seed, 7])
        sizes = tuple(int(self.spaces[r].observation_space.shape[0]) for r in ROLES)
        actions = tuple(len(self.spaces[r].indices) for r in ROLES)
        self.samples = SeatSamples(self.tables.num_tables, config.num_players, sizes, actions)
        self.bank_decision = bank_decision(self.settings["banker"])
        self.history: list[dict[str, Any]] = []
        self.episodes = 0
        self.sessions = 0
        """Banks that changed hands within an episode (``session_per_bank``: each ended its session)."""
        self.holders = np.full(self.tables.num_tables, -1, dtype=np.int64)
        """Each table's banker at its last step (-1: a new episode starts there)."""
        self.measures: dict[str, Any] | None = None
        self.scalars: folder_files.Scalars | None = None
        self.generation = 0
        """The last complete generation (:meth:`restore`: the one a resume continues after)."""

    # ------------------------------------------------------------------ holders
    def draw_owners(self, tables: np.ndarray) -> None:
        """New holders of the league seats of ``tables`` for their next episode."""
        t = self.tables
        owners = t.owners
        owners[tables] = LEARNER
        if not self.snapshots:
            return
        for g, (env, first) in enumerate(zip(t.envs, t.first)):
            share = t.shares[g]
            if share == 0.0:
                continue
            mine = tables[(tables >= first) & (tables < first + env.num_tables)]
            if len(mine) == 0:
                continue
            frozen = (self.rng.random((len(mine), t.num_players)) < share) & ~t.fixed[mine]
            newest = self.rng.random(frozen.shape) < self.config.latest_share
            anyone = self.rng.integers(len(self.snapshots), size=frozen.shape)
            pick = np.where(newest, len(self.snapshots) - 1, anyone)
            rows = np.where(frozen, pick, LEARNER)
            alone = (rows != LEARNER) | t.fixed[mine]
            full = alone.all(axis=1)  # every seat frozen or fixed: the learner takes one league seat back
            for r in np.flatnonzero(full):
                league = np.flatnonzero(~t.fixed[mine[r]])
                rows[r, league[self.rng.integers(len(league))]] = LEARNER
            owners[mine] = rows

    # ------------------------------------------------------------------ one step of every table
    def choose(self, g: int, obs: np.ndarray, info: dict[str, np.ndarray]) -> np.ndarray:
        """Every table of group g's action: the learner's sampled (and stored), or a snapshot's."""
        t = self.tables
        first = t.first[g]
        seats, masks, bankers = info["current_seat"], info["action_mask"], info["banker"]
        actions = np.full(len(seats), -1, dtype=np.int64)
        asked = np.flatnonzero(seats >= 0)
        if len(asked) == 0:
            return actions
        owner = t.owners[first + asked, seats[asked]]
        banker = bankers[asked] == seats[asked]
        for r, role in enumerate(ROLES):
            space = self.spaces[role]
            in_role = banker if role == "banker" else ~banker
            mine = asked[in_role & (owner == LEARNER)]
            if len(mine):
                inputs, role_masks = space.inputs(obs[mine]), space.masks(masks[mine])
                learner = self.learners[role]
                chosen, logp, values = learner.act(inputs, role_masks, self.rng)
                actions[mine] = space.indices[chosen]
                keys = bank_keys(obs[mine]) if role == "banker" and self.deal_means is not None else None
                self.samples.add(first + mine, seats[mine], r, inputs, role_masks, chosen, logp, values, keys)
                learner.decisions += len(mine)
            for k in np.unique(owner[in_role & (owner != LEARNER)]):
                theirs = asked[in_role & (owner == k)]
                frozen = self.snapshots[k][role]
                actions[theirs] = space.indices[frozen.best(space.inputs(obs[theirs]), space.masks(masks[theirs]))]
        return actions

    def collect(self, steps: int, state: list[tuple[np.ndarray, dict]]) -> None:
        t = self.tables
        for _ in range(steps):
            for g, env in enumerate(t.envs):
                obs, info = state[g]
                actions = self.choose(g, obs, info)
                obs, rewards, terminations, truncations, info = env.step(actions)
                first = t.first[g]
                rows = slice(first, first + env.num_tables)
                learner = t.owners[rows] == LEARNER
                learner &= ~t.fixed[rows]
                self.samples.credit(first, rewards, learner)
                ended = terminations | truncations
                if self.config.session_per_bank:
                    self.end_sessions(first, info["banker"], ended)
                over = np.flatnonzero(ended)
                if len(over):
                    self.samples.end_episodes(first + over)
                    self.draw_owners(first + over)
                    self.episodes += len(over)
                state[g] = (obs, info)
            self.samples.tick()

    def end_sessions(self, first: int, bankers: np.ndarray, ended: np.ndarray) -> None:
        """``session_per_bank``: end the learners' trajectories at the tables ``first..`` whose bank has
        changed hands since their last step (not at a new episode: an ended table's next step is its
        reset, whose banker is a new episode's first)."""
        rows = slice(first, first + len(bankers))
        held = self.holders[rows]
        changed = np.flatnonzero((held >= 0) & (bankers != held) & ~ended)
        self.samples.end_episodes(first + changed)
        self.sessions += len(changed)
        self.holders[rows] = np.where(ended, -1, bankers)

    # ------------------------------------------------------------------ the run
    def run(self) -> dict[str, Path]:
        """Train every generation (after :meth:`restore`: those after the one restored) and save the
        final models. ``history.json`` is written after every generation and on an interrupt."""
        config = self.config
        resume = self.generation > 0
        if not resume:
            config.run_dir.mkdir(parents=True, exist_ok=True)
            (config.run_dir / folder_files.CONFIG_FILE).write_text(yaml.safe_dump(dataclasses.asdict(config),
                                                                                  sort_keys=False))
        self.scalars = folder_files.Scalars(config.run_dir / folder_files.TENSORBOARD,
                                            self.decisions() + 1 if resume else None)
        try:
            generation = self.train(self.generation)
        except KeyboardInterrupt:
            self.write_history()
            raise
        finally:
            self.scalars.close()
        final = {role: self.learners[role].save(config.run_dir / role, config, generation) for role in ROLES}
        self.plot()
        return final

    def train(self, generation: int) -> int:
        """The generations after ``generation``; returns the last."""
        config = self.config
        entropy = [config.seed, 11] + ([generation] if generation else [])  # a resume deals afresh
        seeds = np.random.SeedSequence(entropy).generate_state(len(self.tables.envs))
        state = [env.reset(seed=int(seed)) for env, seed in zip(self.tables.envs, seeds)]
        if generation:
            self.draw_owners(np.arange(self.tables.num_tables))
        else:
            self.history.append(self.measure(0, None, 0.0))
            self.finish_row()
        per_generation = config.total_decisions / config.generations
        start = time.perf_counter() - self.history[-1]["seconds"]
        while generation < config.generations:
            self.collect(config.rollout_steps, state)
            batches = self.samples.take_finished(tuple(self.settings[role].gae_lambda for role in ROLES),
                                                 self.bank_decision)
            self._update(batches)
            done = self.decisions()
            if done >= per_generation * (generation + 1) or done >= config.total_decisions:
                generation += 1
                paths = self.snapshot(generation)
                saved = self.state(generation)
                self.history.append(self.measure(generation, paths, time.perf_counter() - start))
                if self.deal_means is not None:
                    self.history[-1]["kept_deals"] = self.deal_means.take_recent()
                self.finish_row()
                folder_files.write_state(config.run_dir / folder_files.GENERATIONS / str(generation), saved)
        return generation

    def finish_row(self) -> None:
        """The newest history row: to ``history.json``, TensorBoard and stdout."""
        self.write_history()
        if self.scalars is not None:
            self.scalars.measurement(self.history[-1], ROLES)
        print(json.dumps(self.history[-1]), flush=True)

    def state(self, generation: int) -> dict[str, Any]:
        """What a resume restores besides the networks (``generations/N/trainer.json``)."""
        return {"generation": generation, "episodes": self.episodes, "sessions": self.sessions,
                "decisions": {r: self.learners[r].decisions for r in ROLES},
                "updates": {r: self.learners[r].updates for r in ROLES}, "rng": self.rng.bit_generator.state,
                **({"deal_means": self.deal_means.state()} if self.deal_means is not None else {})}

    def restore(self) -> int:
        """Continue the run in ``run_dir`` after its last complete generation: the networks, their
        optimizers and the league's snapshots from each generation's trainer states, the counters,
        the random state and the history; a later, partial generation's folder is removed. Returns
        that generation. The tables are dealt afresh (their seed with the generation's number), so a
        resumed run is not the bit-for-bit twin of one that was never stopped."""
        run_dir = self.config.run_dir
        last = folder_files.last_complete(run_dir)
        if last == 0:
            raise ValueError(f"--resume: {run_dir} holds no complete generation to continue from (no "
                             f"{folder_files.GENERATIONS}/1/{folder_files.STATE_FILE}); start it again with "
                             "--overwrite")
        if last >= self.config.generations and all((run_dir / r / "model.zip").is_file() for r in ROLES):
            raise ValueError(f"--resume: {run_dir} holds a finished run (all {self.config.generations} "
                             "generations and the final models): nothing to continue")
        state = folder_files.read_state(run_dir, last, ROLES)
        self.history = folder_files.read_history(run_dir, last)
        for generation in range(1, last + 1):
            for role in ROLES:
                path = run_dir / folder_files.GENERATIONS / str(generation) / role / folder_files.STATE_MODEL
                self.learners[role].restore(path)
            self.snapshots.append({role: self.learners[role].frozen() for role in ROLES})
        for role in ROLES:
            self.learners[role].decisions = state["decisions"][role]
            self.learners[role].updates = state["updates"][role]
        self.episodes = state["episodes"]
        self.sessions = state.get("sessions", 0)  # a run of before session_per_bank
        if self.deal_means is not None:
            try:
                self.deal_means.restore(state.get("deal_means", []))
            except ValueError as error:
                raise ValueError(f"{run_dir}: generation {last}'s {error}") from None
        try:
            self.rng.bit_generator.state = state["rng"]
        except (TypeError, ValueError, KeyError) as error:
            raise ValueError(f"{run_dir}: generation {last}'s rng state cannot be restored "
                             f"({error})") from None
        for generation, folder in folder_files.generation_folders(run_dir):
            if generation > last:
                shutil.rmtree(folder)
        self.write_history()
        print(f"--resume: {run_dir} continues after generation {last} of {self.config.generations} "
              f"({self.decisions()} decisions)", file=sys.stderr)
        self.generation = last
        return last

    @property
    def deal_means(self) -> DealMeans | None:
        return self.bank_decision.deal_means if self.bank_decision is not None else None

    def decisions(self) -> int:
        return sum(learner.decisions for learner in self.learners.values())

    def _update(self, batches: list[Batch]) -> None:
        """Each role's PPO update on its finished samples, logged to TensorBoard."""
        progress = min(1.0, self.decisions() / self.config.total_decisions)
        for r, role in enumerate(ROLES):
            batch = batches[r]
            if len(batch) < 2:
                continue
            stats = self.learners[role].update(batch, progress, self.rng)
            if self.scalars is not None:
                self.scalars.add(role, stats, self.decisions())

    def snapshot(self, generation: int) -> dict[str, Path]:
        folder = self.config.run_dir / "generations" / str(generation)
        self.snapshots.append({role: self.learners[role].frozen() for role in ROLES})
        for role in ROLES:
            self.learners[role].save_state(folder / role / folder_files.STATE_MODEL)
        return {role: self.learners[role].save(folder / role, self.config, generation) for role in ROLES}

    # ------------------------------------------------------------------ measurements
    def measure(self, generation: int, paths: dict[str, Path] | None, seconds: float) -> dict[str, Any]:
        """The punter paired with ``optimal`` at ``ShootPontoon-v0``'s default table (per unit stake)
        and the banker paired with ``dealer`` at ``ShootPontoonBanker-v0``'s (per deal), on the same
        seeded hands every generation; generation 0 measures the rule-based references instead."""
        from .table_measure import PairedMeasure

        if self.measures is None:
            hands, seed = self.config.eval_hands, self.config.eval_seed
            self.measures = {"punter": PairedMeasure("punter", "optimal", self.config.role_env_kwargs("punter"), hands,
                                                     seed),
                             "banker": PairedMeasure("banker", "dealer", self.config.role_env_kwargs("banker"), hands,
                                                     seed)}
        result: dict[str, Any] = {"generation": generation, "seconds": round(seconds, 1),
                                  "decisions": {r: self.learners[r].decisions for r in ROLES},
                                  "episodes": self.episodes, "sessions": self.sessions,
                                  "snapshots": len(self.snapshots)}
        anchors = {"punter": "threshold15", "banker": "stand17"}
        for role in ROLES:
            result[role] = self.measures[role](anchors[role] if paths is None else str(paths[role]))
        return result

    def write_history(self) -> None:
        folder_files.write_atomic(self.config.run_dir / folder_files.HISTORY_FILE,
                                  json.dumps(self.history, indent=2) + "\n")

    def plot(self) -> Path:
        from .table_measure import plot_history

        return plot_history(self.history, self.config.run_dir / "table_selfplay.png")


def main(argv: list[str] | None = None) -> int:
    """The command line: a mistake is one ``error: ...`` line and exit status 2 (``--debug``: traceback)."""
    return run(_main, argv)


def _main(argv: list[str]) -> int:
    parser = Parser(prog="python -m train.table_selfplay", description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", help="YAML of TableSelfPlayConfig fields (train/configs/table_selfplay/*.yml)")
    parser.add_argument("--set", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                        help="override fields, e.g. total_decisions=200000 punter.learning_rate=3e-4")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace the earlier run in the run folder (its files are removed first); "
                             "without it, a folder that holds a run is refused")
    parser.add_argument("--resume", action="store_true",
                        help="continue the interrupted run in the run folder after its last complete "
                             "generation (with the settings it was started with)")
    args = parser.parse_args(argv)
    if args.overwrite and args.resume:
        raise UsageError("--overwrite and --resume: choose one (replace the earlier run, or continue it)")
    try:
        config = load_table_selfplay_config(args.config, args.set)
        selfplay = TableSelfPlay(config)
        if args.resume:
            check_resume(config)
            selfplay.restore()
        else:
            claim_folder(config.run_dir, folder_files.ENTRIES, args.overwrite,
                         also=", --resume to continue it")
    except (ValueError, TypeError, OSError) as error:
        raise UsageError(str(error)) from None
    start = time.perf_counter()
    try:
        final = selfplay.run()
    except KeyboardInterrupt:
        last = folder_files.last_complete(config.run_dir)
        then = ("continue it with the same settings and --resume" if last else
                "no generation was complete: start it again with --overwrite")
        print(f"interrupted: {config.run_dir} keeps its history.json and {last} complete generation(s); "
              f"{then}", file=sys.stderr)
        return 130
    print(f"table self-play: {selfplay.decisions()} decisions (total_decisions {config.total_decisions}: a "
          f"generation ends with its rollout) in {time.perf_counter() - start:.0f}s; models: "
          + ", ".join(str(p) for p in final.values()))
    return 0


def check_resume(config: TableSelfPlayConfig) -> None:
    """A resume continues the run of these very settings (where it writes, and its threads, aside)."""
    saved = read_run_config(config.run_dir)
    mine, theirs = dataclasses.asdict(config), dataclasses.asdict(saved)
    differ = [k for k in mine if k not in ("log_dir", "torch_threads") and mine[k] != theirs[k]]
    if differ:
        key = differ[0]
        more = f"; also {differ[1:]}" if differ[1:] else ""
        raise ValueError(f"--resume: {config.run_dir} was started with other settings ({key} = "
                         f"{theirs[key]!r}, now {mine[key]!r}{more}): resume with its own, --config "
                         f"{config.run_dir / folder_files.CONFIG_FILE}")


if __name__ == "__main__":
    raise SystemExit(main())

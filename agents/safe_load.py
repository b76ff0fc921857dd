"""Loading trained models without running anything the file holds.

A stable-baselines3 ``.zip`` keeps some of its attributes as cloudpickle blobs (the policy class, the
spaces, the schedules): ``PPO.load`` unpickles them, and a crafted file runs code there. This module
never does. It reads only

- the run's configuration (``config.yaml`` of ``python -m train``, or the ``config.yml`` and
  ``args.yml`` an rl-baselines3-zoo run writes), with YAML's safe loader;
- the tensors of ``policy.pth`` inside the zip, with torch's weights-only loader;
- the plain JSON values of the zip's ``data`` entry (``num_timesteps``), skipping every pickled one.

The policy is rebuilt from the configuration and the env's spaces, and a file whose tensors do not
fit it exactly (another architecture, another env, extra or missing weights) is refused, naming the
difference.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

POLICY_ENTRY = "policy.pth"
ZOO_ALGOS = {"ppo_mask": "maskable_ppo", "ppo": "ppo"}
"""rl-baselines3-zoo algorithm names of the models these loaders rebuild."""
COMPACT_WRAPPER = "shoot_pontoon_env.envs.features.CompactObservation"
SB3_DEFAULT_NET_ARCH = [64, 64]


class ModelFileError(ValueError):
    """A model file that cannot be loaded safely, or that does not fit: the message says why."""


@dataclass(frozen=True)
class ModelConfig:
    """What rebuilding a policy needs to know about the run that trained it."""

    algo: str
    """``maskable_ppo`` or ``ppo``."""
    observation: str
    """``flat`` (the env's observation) or ``compact`` (``CompactObservation``)."""
    net_arch: list[int]
    env_id: str | None
    env_kwargs: dict[str, Any]
    source: Path


# --------------------------------------------------------------------------- configurations
class _ZooLoader(yaml.SafeLoader):
    """YAML's safe loader, plus the two tags rl-baselines3-zoo writes into ``config.yml`` and
    ``args.yml``: an OrderedDict (read as a dict) and a tuple (read as a list). Nothing else of the
    ``python/`` family is accepted."""


def _ordered_dict(loader: yaml.SafeLoader, node: yaml.Node) -> dict[str, Any]:
    pairs = loader.construct_sequence(node.value[0], deep=True) if node.value else []
    return {key: value for key, value in pairs}


_ZooLoader.add_constructor("tag:yaml.org,2002:python/object/apply:collections.OrderedDict", _ordered_dict)
_ZooLoader.add_constructor("tag:yaml.org,2002:python/tuple", lambda loader, node: loader.construct_sequence(node))


def _read_yaml(path: Path, loader: type[yaml.SafeLoader] = yaml.SafeLoader) -> dict[str, Any]:
    try:
        data = yaml.load(path.read_text(), Loader=loader)  # noqa: S506 (a safe loader)
    except yaml.YAMLError as error:
        raise ModelFileError(f"{path}: not a configuration this loader reads safely ({error})") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ModelFileError(f"{path}: expected a mapping of settings")
    return data


def _policy_kwargs(value: Any, source: Path) -> dict[str, Any]:
    """rl-baselines3-zoo's ``policy_kwargs``: a mapping, or a string such as ``dict(net_arch=[64, 64])``
    (which the zoo evaluates; here only a ``dict(...)`` call of literal keyword arguments is read)."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        try:
            tree = ast.parse(value, mode="eval").body
            if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id == "dict" and (
                not tree.args
            ):
                return {k.arg: ast.literal_eval(k.value) for k in tree.keywords if k.arg is not None}
            if isinstance(tree, ast.Dict):
                return ast.literal_eval(tree)
        except (SyntaxError, ValueError):
            pass
    raise ModelFileError(f"{source}: policy_kwargs = {value!r}: expected a mapping or dict(...) of literals")


def _net_arch(value: Any, source: Path) -> list[int]:
    if isinstance(value, dict):  # SB3's dict(pi=[...], vf=[...]): only equal halves are rebuilt here
        if value.get("pi") != value.get("vf"):
            raise ModelFileError(f"{source}: net_arch = {value!r}: separate policy and value layers are not "
                                 "supported; expected one list of layer sizes")
        value = value.get("pi")
    if not isinstance(value, list) or not value or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in value
    ):
        raise ModelFileError(f"{source}: net_arch = {value!r}: expected a list of layer sizes (ints >= 1)")
    return list(value)


def _train_config(path: Path) -> ModelConfig:
    from train.config import TrainConfig  # the defaults of a run that did not write a field

    defaults = {f.name: f.default if f.default is not dataclasses.MISSING else f.default_factory()
                for f in dataclasses.fields(TrainConfig)}
    data = {**defaults, **_read_yaml(path)}
    if data["algo"] not in ZOO_ALGOS.values():
        raise ModelFileError(f"{path}: algo = {data['algo']!r}: expected one of {sorted(ZOO_ALGOS.values())}")
    if data["observation"] not in ("flat", "compact"):
        raise ModelFileError(f"{path}: observation = {data['observation']!r}: expected 'flat' or 'compact'")
    return ModelConfig(algo=data["algo"], observation=data["observation"], net_arch=_net_arch(data["net_arch"], path),
                       env_id=data.get("env_id"), env_kwargs=dict(data.get("env_kwargs") or {}), source=path)


def _zoo_config(folder: Path) -> ModelConfig:
    """An rl-baselines3-zoo run's ``<env>/config.yml`` (hyperparameters) and ``args.yml``."""
    hyper = _read_yaml(folder / "config.yml", _ZooLoader)
    args = _read_yaml(folder / "args.yml", _ZooLoader)
    algo = args.get("algo")
    if algo not in ZOO_ALGOS:
        raise ModelFileError(f"{folder / 'args.yml'}: algo = {algo!r}: expected one of {sorted(ZOO_ALGOS)}")
    wrapper = hyper.get("env_wrapper")
    if wrapper not in (None, COMPACT_WRAPPER, [COMPACT_WRAPPER]):
        raise ModelFileError(f"{folder / 'config.yml'}: env_wrapper = {wrapper!r}: expected none or "
                             f"{COMPACT_WRAPPER}")
    kwargs = _policy_kwargs(hyper.get("policy_kwargs"), folder / "config.yml")
    env_kwargs = {**(hyper.get("env_kwargs") or {}), **(args.get("env_kwargs") or {})}
    return ModelConfig(algo=ZOO_ALGOS[algo], observation="compact" if wrapper else "flat",
                       net_arch=_net_arch(kwargs.get("net_arch", SB3_DEFAULT_NET_ARCH), folder / "config.yml"),
                       env_id=args.get("env"), env_kwargs=env_kwargs, source=folder / "config.yml")


def model_config(model_path: Path) -> ModelConfig:
    """The configuration of a model's run: ``config.yaml`` beside the model or one level up (a
    checkpoint), else an rl-baselines3-zoo run folder (``<run>/<env>/config.yml`` and ``args.yml``)."""
    for folder in (model_path.parent, model_path.parent.parent):
        if (folder / "config.yaml").is_file():
            return _train_config(folder / "config.yaml")
    zoo = sorted(p.parent for p in model_path.parent.glob("*/config.yml") if (p.parent / "args.yml").is_file())
    if zoo:
        return _zoo_config(zoo[0])
    raise ModelFileError(
        f"{model_path}: no config.yaml beside it (or one folder up) and no rl-baselines3-zoo run folder: "
        "the policy is rebuilt from its run's configuration, never unpickled from the file"
    )


# --------------------------------------------------------------------------- the zip
def _open_zip(path: Path) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as error:
        raise ModelFileError(f"{path}: not a stable-baselines3 model zip ({error})") from None


def plain_data(path: Path) -> dict[str, Any]:
    """The JSON values of the zip's ``data`` entry that are plain data; pickled ones are skipped,
    never decoded."""
    with _open_zip(path) as archive:
        if "data" not in archive.namelist():
            return {}
        try:
            data = json.loads(archive.read("data"))
        except (ValueError, UnicodeDecodeError) as error:
            raise ModelFileError(f"{path}: its data entry is not JSON ({error})") from None
    if not isinstance(data, dict):
        raise ModelFileError(f"{path}: its data entry is not a JSON object")
    return {k: v for k, v in data.items() if not (isinstance(v, dict) and ":serialized:" in v)}


def policy_tensors(path: Path) -> dict[str, Any]:
    """The policy's state dict from ``policy.pth``, through torch's weights-only unpickler (which
    builds tensors and plain containers only, and refuses anything else)."""
    import pickle

    import torch

    with _open_zip(path) as archive:
        if POLICY_ENTRY not in archive.namelist():
            raise ModelFileError(f"{path}: no {POLICY_ENTRY} inside: not a stable-baselines3 model")
        raw = archive.read(POLICY_ENTRY)
    try:
        state = torch.load(io.BytesIO(raw), map_location="cpu", weights_only=True)
    except (pickle.UnpicklingError, RuntimeError, EOFError, ValueError, zipfile.BadZipFile) as error:
        lines = [line.strip() for line in str(error).splitlines() if line.strip()] or [type(error).__name__]
        reason = next((line for line in lines if "unsupported global" in line.lower() or "Unpickler error" in line),
                      lines[0])
        raise ModelFileError(f"{path}: refused: {POLICY_ENTRY} holds more than tensors, or is damaged "
                             f"(torch's weights-only loader: {reason})") from None
    if not isinstance(state, dict) or not all(isinstance(k, str) and isinstance(v, torch.Tensor)
                                              for k, v in state.items()):
        raise ModelFileError(f"{path}: refused: {POLICY_ENTRY} is not a mapping of names to tensors")
    return state


# --------------------------------------------------------------------------- the policy
def build_policy(config: ModelConfig, observation_space: Any, action_space: Any) -> Any:
    """A fresh policy of the run's class and architecture for these spaces."""
    if config.algo == "maskable_ppo":
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy as policy_class
    else:
        from stable_baselines3.common.policies import ActorCriticPolicy as policy_class
    return policy_class(observation_space, action_space, lr_schedule=lambda _: 0.0, net_arch=list(config.net_arch))


def fit_tensors(policy: Any, state: dict[str, Any], path: Path, what: str) -> None:
    """Load ``state`` into ``policy`` if every name and shape matches exactly; else refuse."""
    expected = {k: tuple(v.shape) for k, v in policy.state_dict().items()}
    found = {k: tuple(v.shape) for k, v in state.items()}
    if expected != found:
        missing = sorted(set(expected) - set(found))
        extra = sorted(set(found) - set(expected))
        shapes = [f"{k}: file {found[k]}, expected {expected[k]}" for k in sorted(set(expected) & set(found))
                  if found[k] != expected[k]]
        detail = "; ".join(filter(None, [
            f"missing {missing[:3]}" if missing else "", f"unexpected {extra[:3]}" if extra else "",
            ", ".join(shapes[:3])]))
        raise ModelFileError(f"{path}: its weights do not fit {what} ({detail})")
    policy.load_state_dict(state)
    policy.set_training_mode(False)


def load_policy(path: Path, config: ModelConfig, observation_space: Any, action_space: Any, what: str) -> Any:
    """The trained policy of ``path``, rebuilt for these spaces (``what`` names them in errors)."""
    policy = build_policy(config, observation_space, action_space)
    fit_tensors(policy, policy_tensors(path), path, what)
    return policy

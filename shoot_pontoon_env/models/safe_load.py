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

Nothing read can exhaust memory or import code either: a configuration's ``env_id`` must be one of
this package's registered ids (Gymnasium's ``"module:EnvId"`` form would import ``module``), files and
zip entries are size-checked from their declared sizes before anything is read or decompressed (a
policy entry may hold no more than the policy its configuration rebuilds), YAML aliases are refused
(a few bytes of them expand exponentially when printed), and every tensor must be finite (a NaN
weight would otherwise load and crash at the first action). Every refusal is a one-line
:class:`ModelFileError` naming the file and why.

Part of the installed package (``python -m shoot_pontoon_env.play`` seats trained opponents with it),
and re-exported by the checkout's ``agents/safe_load.py``; it needs the ``train`` extra (pyyaml here,
torch and stable-baselines3 / sb3-contrib when a policy is read).
"""

from __future__ import annotations

import ast
import io
import json
import math
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

POLICY_ENTRY = "policy.pth"
ZOO_ALGOS = {"ppo_mask": "maskable_ppo", "ppo": "ppo"}
"""rl-baselines3-zoo algorithm names of the models these loaders rebuild."""
COMPACT_WRAPPER = "shoot_pontoon_env.envs.features.CompactObservation"
SB3_DEFAULT_NET_ARCH = [64, 64]
MAX_CONFIG_BYTES = 1 << 20
"""A run's YAML configuration is a few KB; a larger file is refused before it is read."""
MAX_DATA_BYTES = 8 << 20
"""The zip's ``data`` entry (JSON, with the pickled spaces as text) is well under 1 MB for these envs."""
MAX_PARAMETERS = 16_000_000
"""The largest policy rebuilt (64 MB of float32): a configuration asking for more is refused before
anything is built, so a crafted ``net_arch`` cannot exhaust memory."""
MAX_RATIO = 200
"""Largest compression ratio of an entry over 1 MiB: weights compress about 1.1x, a bomb of zeros 1000x."""
TORCH_OVERHEAD = 1 << 20
"""Allowance for torch's zip container (headers, alignment, the pickled structure) around the tensors."""
TRAIN_DEFAULTS: dict[str, Any] = {"algo": "maskable_ppo", "observation": "flat", "net_arch": [128, 128],
                                  "env_id": "ShootPontoon-Playtech-v0", "env_kwargs": {}}
"""What ``python -m train`` uses for the fields read here that a run's ``config.yaml`` leaves out: the
defaults of ``train/config.py``'s ``TrainConfig`` (the installed package cannot import ``train/``;
tests/test_play.py holds the two equal)."""


class ModelFileError(ValueError):
    """A model file that cannot be loaded safely, or that does not fit: the message says why."""


@dataclass(frozen=True)
class ModelConfig:
    """What rebuilding a policy needs to know about the run that trained it."""

    algo: str
    """``maskable_ppo`` or ``ppo``."""
    observation: str
    """``flat`` (the env's observation) or ``compact`` (the compact features: an env made with
    ``observation="compact"``, or the ``CompactObservation`` wrapper of older zoo runs)."""
    net_arch: list[int]
    env_id: str | None
    env_kwargs: dict[str, Any]
    source: Path


# --------------------------------------------------------------------------- configurations
class _SafeLoader(yaml.SafeLoader):
    """YAML's safe loader without aliases: ``*name`` shares one node, and nested aliases make a small
    file whose text (a repr, an error message) is exponentially large."""

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not read in a model's "
                                              "configuration", self.peek_event().start_mark)
        return super().compose_node(parent, index)


class _ZooLoader(_SafeLoader):
    """The safe loader, plus the two tags rl-baselines3-zoo writes into ``config.yml`` and
    ``args.yml``: an OrderedDict (read as a dict) and a tuple (read as a list). Nothing else of the
    ``python/`` family is accepted."""


def _ordered_dict(loader: yaml.SafeLoader, node: yaml.Node) -> dict[str, Any]:
    """rl-baselines3-zoo's ``OrderedDict`` as written: a one-item sequence of [key, value] pairs."""
    if not isinstance(node, yaml.SequenceNode) or len(node.value) > 1 or (
            node.value and not isinstance(node.value[0], yaml.SequenceNode)):
        raise yaml.constructor.ConstructorError(None, None, "an OrderedDict tag on anything but a list of "
                                                "[key, value] pairs", node.start_mark)
    pairs = loader.construct_sequence(node.value[0], deep=True) if node.value else []
    if not all(isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) for pair in pairs):
        raise yaml.constructor.ConstructorError(None, None, "an OrderedDict whose items are not [key, value] "
                                                "pairs with text keys", node.start_mark)
    return {key: value for key, value in pairs}


_ZooLoader.add_constructor("tag:yaml.org,2002:python/object/apply:collections.OrderedDict", _ordered_dict)
_ZooLoader.add_constructor("tag:yaml.org,2002:python/tuple", lambda loader, node: loader.construct_sequence(node))


def _read_yaml(path: Path, loader: type[yaml.SafeLoader] = _SafeLoader) -> dict[str, Any]:
    """A configuration file's mapping, read with a safe loader once its size is known to be small."""
    try:
        size = path.stat().st_size
        if size > MAX_CONFIG_BYTES:
            raise ModelFileError(f"{path}: {size} bytes, more than the {MAX_CONFIG_BYTES} a run's "
                                 "configuration may have: refused unread")
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise ModelFileError(f"{path}: cannot be read as text ({reason})") from None
    try:
        data = yaml.load(text, Loader=loader)  # noqa: S506 (a safe loader)
    except (yaml.YAMLError, ValueError, TypeError, AttributeError, IndexError, RecursionError) as error:
        reason = " ".join(str(error).split())[:300] or type(error).__name__
        raise ModelFileError(f"{path}: not a configuration this loader reads safely ({reason})") from None
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


def _env_id(value: Any, source: Path) -> str | None:
    """A model's env id: one this package registers, or none (the default). Gymnasium's
    ``"module:EnvId"`` form imports ``module`` at ``gym.make``, so a model folder carrying a
    ``module.py`` would run it; any other package's id is not a model these loaders rebuild."""
    from ..envs.registration import ENV_IDS

    if value is None or (isinstance(value, str) and value in ENV_IDS):
        return value
    raise ModelFileError(f"{source}: env_id = {str(value)[:200]!r}: expected one of this package's ids "
                         f"{sorted(ENV_IDS)} (no module: prefix)")


def _env_kwargs(value: Any, source: Path) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise ModelFileError(f"{source}: env_kwargs = {str(value)[:200]}: expected a mapping of env arguments")
    return dict(value)


def _train_config(path: Path) -> ModelConfig:
    data = {**TRAIN_DEFAULTS, **_read_yaml(path)}  # the defaults of a run that did not write a field
    if data["algo"] not in ZOO_ALGOS.values():
        raise ModelFileError(f"{path}: algo = {data['algo']!r}: expected one of {sorted(ZOO_ALGOS.values())}")
    if data["observation"] not in ("flat", "compact"):
        raise ModelFileError(f"{path}: observation = {data['observation']!r}: expected 'flat' or 'compact'")
    return ModelConfig(algo=data["algo"], observation=data["observation"], net_arch=_net_arch(data["net_arch"], path),
                       env_id=_env_id(data.get("env_id"), path),
                       env_kwargs=_env_kwargs(data.get("env_kwargs"), path), source=path)


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
    env_kwargs = {**_env_kwargs(hyper.get("env_kwargs"), folder / "config.yml"),
                  **_env_kwargs(args.get("env_kwargs"), folder / "args.yml")}
    observation = env_kwargs.pop("observation", "flat")  # the env's own compact row, as hyperparams/ writes it
    if observation not in ("flat", "compact"):
        raise ModelFileError(f"{folder / 'config.yml'}: env_kwargs observation = {str(observation)[:200]!r}: "
                             "expected 'flat' or 'compact'")
    return ModelConfig(algo=ZOO_ALGOS[algo], observation="compact" if wrapper or observation == "compact" else "flat",
                       net_arch=_net_arch(kwargs.get("net_arch", SB3_DEFAULT_NET_ARCH), folder / "config.yml"),
                       env_id=_env_id(args.get("env"), folder / "args.yml"), env_kwargs=env_kwargs,
                       source=folder / "config.yml")


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
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise ModelFileError(f"{path}: not a stable-baselines3 model zip ({error})") from None


def _check_declared(info: zipfile.ZipInfo, limit: int, where: str, why: str) -> None:
    """Refuse an entry from the sizes its header declares, before a byte of it is decompressed (Python's
    zipfile never inflates an entry past its declared size, and a lie about it fails its CRC)."""
    if info.file_size > limit:
        raise ModelFileError(f"{where}: declares {info.file_size} bytes uncompressed, more than the {limit} "
                             f"{why}: refused before decompressing")
    if info.file_size > 1 << 20 and info.file_size > MAX_RATIO * max(info.compress_size, 1):
        raise ModelFileError(f"{where}: declares {info.file_size} bytes from {info.compress_size} compressed "
                             f"(over {MAX_RATIO}x, a zip bomb's ratio): refused before decompressing")


def _read_entry(archive: zipfile.ZipFile, path: Path, name: str, limit: int, why: str) -> bytes:
    """One entry's bytes, its declared size checked against ``limit`` first."""
    where = f"{path}: entry {name}"
    _check_declared(archive.getinfo(name), limit, where, why)
    try:
        return archive.read(name)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError,
            ValueError) as error:  # a damaged, encrypted or oddly compressed entry
        raise ModelFileError(f"{where}: cannot be read ({' '.join(str(error).split())[:200]})") from None


def entry_limit(tensor_bytes: int, copies: int = 2) -> int:
    """The most bytes a torch file of ``tensor_bytes`` of tensors may declare: ``copies`` times them
    (an optimizer keeps two moments per weight) plus :data:`TORCH_OVERHEAD`."""
    return copies * tensor_bytes + TORCH_OVERHEAD


DEFAULT_POLICY_LIMIT = entry_limit(4 * MAX_PARAMETERS)
"""What ``policy.pth`` may declare when the policy it should hold is not known: the largest rebuilt."""


def check_sizes(path: Path, limit: int = entry_limit(4 * MAX_PARAMETERS, copies=3)) -> None:
    """Every entry's declared size within ``limit`` (default: an optimizer's state of the largest policy
    rebuilt) and a sane ratio: what a command checks before it builds anything, so that a zip bomb is
    refused while the process is still small. Reading an entry checks it again, against what the
    model at hand may hold."""
    with _open_zip(path) as archive:
        for info in archive.infolist():
            _check_declared(info, limit, f"{path}: entry {info.filename}", "any model here may hold")


def plain_data(path: Path) -> dict[str, Any]:
    """The JSON values of the zip's ``data`` entry that are plain data; pickled ones are skipped,
    never decoded."""
    with _open_zip(path) as archive:
        if "data" not in archive.namelist():
            return {}
        raw = _read_entry(archive, path, "data", MAX_DATA_BYTES, "a model's data entry may have")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        reason = " ".join(str(error).split())[:200]
        raise ModelFileError(f"{path}: its data entry is not JSON ({reason})") from None
    if not isinstance(data, dict):
        raise ModelFileError(f"{path}: its data entry is not a JSON object")
    return {k: v for k, v in data.items() if not (isinstance(v, dict) and ":serialized:" in v)}


def _torch_state(raw: bytes, path: Path, entry: str, limit: int) -> Any:
    """A torch file's contents through torch's weights-only unpickler (tensors and plain containers
    only). Torch's format is itself a zip: its records' declared sizes are checked the same way first,
    and the legacy format (which allocates the storages its pickle declares) is refused."""
    import pickle

    where = f"{path}: {entry}"
    buffer = io.BytesIO(raw)
    try:
        with zipfile.ZipFile(buffer) as inner:
            records = inner.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise ModelFileError(f"{path}: refused: {entry} is not in torch's zip format (torch.save since "
                             "1.6)") from None
    declared = sum(info.file_size for info in records)
    if declared > limit:
        raise ModelFileError(f"{where}: its records declare {declared} bytes, more than the {limit} this model "
                             "may hold: refused before decompressing")
    for info in records:
        _check_declared(info, limit, f"{where} record {info.filename}", "this model may hold")
    import torch

    buffer.seek(0)
    try:
        return torch.load(buffer, map_location="cpu", weights_only=True)
    except (pickle.UnpicklingError, RuntimeError, EOFError, ValueError, TypeError, KeyError, AttributeError,
            IndexError, zipfile.BadZipFile, MemoryError) as error:
        lines = [line.strip() for line in str(error).splitlines() if line.strip()] or [type(error).__name__]
        reason = next((line for line in lines if "unsupported global" in line.lower() or "Unpickler error" in line),
                      lines[0])
        raise ModelFileError(f"{path}: refused: {entry} holds more than tensors, or is damaged "
                             f"(torch's weights-only loader: {reason[:300]})") from None


def _check_finite(value: Any, where: str, name: str = "") -> None:
    """Every tensor and float at any depth finite (a NaN weight loads, then fails every first action),
    and every tensor dense and no larger than its stored bytes (a stride-0 view of one stored number
    could claim any size, which checking it, or copying it, would then allocate)."""
    import torch

    if isinstance(value, torch.Tensor):
        if value.layout != torch.strided:
            raise ModelFileError(f"{where}: refused: tensor {name!r} is {value.layout}, not a dense tensor")
        if value.numel() * value.element_size() > value.untyped_storage().nbytes():  # a stride-0 view
            raise ModelFileError(f"{where}: refused: tensor {name!r} of shape {tuple(value.shape)} is a view "
                                 "larger than the bytes stored for it")
        if (value.is_floating_point() or value.is_complex()) and not bool(torch.isfinite(value).all()):
            raise ModelFileError(f"{where}: refused: tensor {name!r} holds NaN or infinite values")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ModelFileError(f"{where}: refused: {name!r} = {value} is not finite")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_finite(item, where, f"{name}.{key}" if name else str(key))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _check_finite(item, where, f"{name}[{index}]")


def read_torch_entry(path: Path, entry: str, limit: int) -> Any:
    """A ``.pth`` entry of a model zip, its declared sizes checked against ``limit``, read by the
    weights-only loader and checked finite."""
    with _open_zip(path) as archive:
        if entry not in archive.namelist():
            raise ModelFileError(f"{path}: no {entry} inside: not a stable-baselines3 model")
        raw = _read_entry(archive, path, entry, limit, "this model may hold")
    state = _torch_state(raw, path, entry, limit)
    try:
        _check_finite(state, f"{path}: {entry}")
    except RecursionError:
        raise ModelFileError(f"{path}: refused: {entry} nests its values too deeply") from None
    return state


def policy_tensors(path: Path, limit: int = DEFAULT_POLICY_LIMIT) -> dict[str, Any]:
    """The policy's state dict from ``policy.pth``: no larger than ``limit`` bytes (declared), read
    through torch's weights-only unpickler (which builds tensors and plain containers only, and
    refuses anything else), every tensor finite."""
    state = read_torch_entry(path, POLICY_ENTRY, limit)
    import torch  # only now: a file refused from its sizes costs no torch import

    if not isinstance(state, dict) or not all(isinstance(k, str) and isinstance(v, torch.Tensor)
                                              and v.is_floating_point() for k, v in state.items()):
        raise ModelFileError(f"{path}: refused: {POLICY_ENTRY} is not a mapping of names to float tensors")
    return state


SB3_VARIABLES = ("pytorch_variables.pth", "tensors.pth")
"""Entries of SB3's extra torch variables (none for PPO): read as safely as the rest, then unused."""


def checkpoint_params(path: Path, names: list[str], tensor_bytes: int) -> dict[str, Any]:
    """What ``model.set_parameters`` takes from a checkpoint: the state of each of ``names`` (SB3's
    ``policy``, ``policy.optimizer``), read from its ``NAME.pth`` with the weights-only loader, declared
    sizes bounded by the model's ``tensor_bytes`` (an optimizer keeps two moments per weight), every
    value finite. SB3's own loader would read every ``.pth`` entry: one this model has no use for is
    refused, never read."""
    with _open_zip(path) as archive:
        entries = [name for name in archive.namelist() if name.endswith(".pth")]
    wanted = {f"{name}.pth": name for name in names}
    extra = [entry for entry in entries if entry not in wanted and entry not in SB3_VARIABLES]
    if extra:
        raise ModelFileError(f"{path}: refused: unexpected entry {extra[0]} (a checkpoint of this model holds "
                             f"only {sorted(wanted)} and {SB3_VARIABLES[0]} as torch files)")
    params = {}
    for entry in entries:
        if entry in SB3_VARIABLES:
            read_torch_entry(path, entry, TORCH_OVERHEAD)
        elif entry == POLICY_ENTRY:
            params[wanted[entry]] = policy_tensors(path, entry_limit(tensor_bytes))
        else:
            params[wanted[entry]] = read_torch_entry(path, entry, entry_limit(tensor_bytes, copies=3))
    return params


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


def policy_parameters(net_arch: list[int], inputs: int, actions: int) -> int:
    """Weights of the policy :func:`build_policy` makes (SB3's separate policy and value MLPs of
    ``net_arch``, an action head and a value head), counted without building it."""
    sizes = [inputs, *net_arch]
    mlp = sum(a * b + b for a, b in zip(sizes, sizes[1:]))
    return 2 * mlp + sizes[-1] * (actions + 1) + actions + 1


def load_policy(path: Path, config: ModelConfig, observation_space: Any, action_space: Any, what: str) -> Any:
    """The trained policy of ``path``, rebuilt for these spaces (``what`` names them in errors). The
    size of the policy is known from the configuration before anything is built or read, and bounds
    what ``policy.pth`` may declare."""
    count = policy_parameters(config.net_arch, math.prod(observation_space.shape), int(action_space.n))
    if count > MAX_PARAMETERS:
        raise ModelFileError(f"{config.source}: net_arch = {config.net_arch}: a policy of {count} weights, more "
                             f"than the {MAX_PARAMETERS} a model here may have: refused before building it")
    state = policy_tensors(path, entry_limit(4 * count))
    policy = build_policy(config, observation_space, action_space)
    fit_tensors(policy, state, path, what)
    return policy

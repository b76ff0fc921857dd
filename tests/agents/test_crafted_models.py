"""Crafted model files are refused in one line that names the file and why, by ``make_agent`` and by
every command line that loads models (``evaluate --agents``, ``play --opponents``, ``train --resume``),
exit status 2 and no traceback; nothing they carry runs (a payload would make a marker folder), and a
zip that declares a huge entry is refused from its declared sizes, before anything is decompressed."""

from __future__ import annotations

import io
import pickle
import re
import struct
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import yaml
from test_safe_load import PLAYTECH, ROOT, TINY, Payload, rewrite_zip, run_folder

import shoot_pontoon_env.envs  # noqa: F401
from agents import make_agent
from shoot_pontoon_env.models.safe_load import ModelFileError, policy_parameters
from shoot_pontoon_env.cli import run
from tests.hang_guard import HANG_GUARD_S

ENV_ID = "ShootPontoon-Playtech-v0"
ENV_KWARGS = {"num_players": 2, "stake_levels": [1]}
"""The table of the Playtech training config, which the crafted models (built from it) fit."""
GIB = 1 << 30
PEAK_MB = (
    "def peak_mb():\n"
    "    # this process's own peak: ru_maxrss of a fresh process starts at its parent's (Linux)\n"
    "    try:\n"
    "        with open('/proc/self/status') as status:\n"
    "            return next(int(line.split()[1]) for line in status if line.startswith('VmHWM')) // 1024\n"
    "    except OSError:\n"
    "        import resource\n"
    "        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024\n"
)
"""Source of ``peak_mb()`` for the fresh processes that measure memory."""


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory) -> Path:
    """One untrained run folder of the Playtech config (config.yaml, model.zip), copied per case."""
    model, _ = run_folder(tmp_path_factory.mktemp("clean"), "clean")
    return model.parent


def copy_run(clean: Path, folder: Path) -> Path:
    folder.mkdir(parents=True)
    for name in ("config.yaml", "model.zip"):
        (folder / name).write_bytes((clean / name).read_bytes())
    return folder / "model.zip"


def set_config(model: Path, **changes) -> None:
    config = yaml.safe_load((model.parent / "config.yaml").read_text())
    config.update(changes)
    (model.parent / "config.yaml").write_text(yaml.safe_dump(config))


def declare_size(archive: bytes, entry: str, size: int) -> bytes:
    """The zip with ``entry``'s central directory record declaring ``size`` bytes uncompressed (its
    content unchanged): a huge declared size, cheaply."""
    raw = bytearray(archive)
    at = 0
    while (at := raw.find(b"PK\x01\x02", at)) >= 0:
        name_length = struct.unpack_from("<H", raw, at + 28)[0]
        if raw[at + 46:at + 46 + name_length] == entry.encode():
            struct.pack_into("<I", raw, at + 24, size)
            return bytes(raw)
        at += 4
    raise AssertionError(f"no entry {entry}")


def entries_of(model: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(model) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def torch_bytes(state: object) -> bytes:
    import torch

    buffer = io.BytesIO()
    torch.save(state, buffer)
    return buffer.getvalue()


def policy_state(model: Path) -> dict:
    import torch

    return torch.load(io.BytesIO(entries_of(model)["policy.pth"]), weights_only=True)


# --------------------------------------------------------------------------- the crafted cases
def module_env_id(model: Path, marker: Path) -> None:
    """``env_id: payload:ShootPontoon-Playtech-v0``: gym.make would import payload.py (beside the
    model, and on sys.path in these tests), which makes the marker."""
    (model.parent / "payload.py").write_text(f"import os\nos.mkdir({str(marker)!r})\n")
    set_config(model, env_id=f"payload:{ENV_ID}")


def foreign_env_id(model: Path, marker: Path) -> None:
    set_config(model, env_id="CartPole-v1")


def huge_declared_entry(model: Path, marker: Path) -> None:
    """policy.pth's header declares 1 GiB (the bytes behind it are the real, small ones)."""
    model.write_bytes(declare_size(model.read_bytes(), "policy.pth", GIB))


def zeros_bomb(model: Path, marker: Path) -> None:
    """policy.pth is 256 MiB of zeros deflated to a quarter of a megabyte, its sizes honest."""
    entries = entries_of(model)
    with zipfile.ZipFile(model, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries.items():
            if name != "policy.pth":
                archive.writestr(name, content)
        with archive.open("policy.pth", "w") as bomb:
            zeros = bytes(1 << 20)
            for _ in range(256):
                bomb.write(zeros)


def inner_bomb(model: Path, marker: Path) -> None:
    """policy.pth is small, but a record of torch's own zip inside it declares 1 GiB."""
    inner = torch_bytes(policy_state(model))
    record = next(name for name in zipfile.ZipFile(io.BytesIO(inner)).namelist() if "/data/" in name)
    rewrite_zip(model, {"policy.pth": declare_size(inner, record, GIB)})


def nan_weight(model: Path, marker: Path) -> None:
    state = policy_state(model)
    state["action_net.weight"][0, 0] = float("nan")
    rewrite_zip(model, {"policy.pth": torch_bytes(state)})


def inf_weight(model: Path, marker: Path) -> None:
    state = policy_state(model)
    state["mlp_extractor.value_net.0.bias"][3] = float("-inf")
    rewrite_zip(model, {"policy.pth": torch_bytes(state)})


def stride_0_view(model: Path, marker: Path) -> None:
    """A tensor of 2**33 elements stored as one number (a stride-0 view): checking or copying it would
    allocate them all."""
    import torch

    state = policy_state(model)
    state["action_net.weight"] = torch.zeros(1).expand(1 << 33)
    rewrite_zip(model, {"policy.pth": torch_bytes(state)})


def sparse_tensor(model: Path, marker: Path) -> None:
    state = policy_state(model)
    state["action_net.weight"] = state["action_net.weight"].to_sparse()
    rewrite_zip(model, {"policy.pth": torch_bytes(state)})


def legacy_pickle(model: Path, marker: Path) -> None:
    """policy.pth a bare pickle (torch's legacy format) whose unpickling makes the marker."""
    rewrite_zip(model, {"policy.pth": pickle.dumps(Payload(marker))})


def huge_net_arch(model: Path, marker: Path) -> None:
    """A config whose policy would be 8 billion weights: refused before anything is built."""
    set_config(model, net_arch=[65536, 65536])


def yaml_payload(model: Path, marker: Path) -> None:
    text = (model.parent / "config.yaml").read_text()
    (model.parent / "config.yaml").write_text(text + f"extra: !!python/object/apply:os.mkdir [{str(marker)!r}]\n")


def yaml_alias_bomb(model: Path, marker: Path) -> None:
    """Nested aliases: a few hundred bytes whose text (in any message) would be 2**40 items."""
    lines = ["a0: &a0 [x, x]"] + [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]" for i in range(1, 41)]
    text = (model.parent / "config.yaml").read_text()
    (model.parent / "config.yaml").write_text(text + "\n".join(lines) + "\nenv_kwargs_extra: *a40\n")


def huge_config(model: Path, marker: Path) -> None:
    text = (model.parent / "config.yaml").read_text()
    (model.parent / "config.yaml").write_text(text + "# padding\n" * 200_000)


def env_kwargs_not_a_mapping(model: Path, marker: Path) -> None:
    set_config(model, env_kwargs=[1, 2])


CASES: dict[str, tuple[Callable[[Path, Path], None], str]] = {
    "module env_id": (module_env_id, r"config\.yaml: env_id = 'payload:ShootPontoon-Playtech-v0': expected one "
                                     r"of this package's ids"),
    "foreign env_id": (foreign_env_id, r"config\.yaml: env_id = 'CartPole-v1': expected one of this package's"),
    "huge declared entry": (huge_declared_entry, r"model\.zip: entry policy\.pth: declares 1073741824 bytes "
                                                 r"uncompressed, more than the \d+ .*refused before decompressing"),
    "zeros bomb": (zeros_bomb, r"model\.zip: entry policy\.pth: declares 268435456 bytes uncompressed"),
    "inner bomb": (inner_bomb, r"model\.zip: policy\.pth: its records declare \d+ bytes, more than the \d+"),
    "NaN weight": (nan_weight, r"model\.zip: policy\.pth: refused: tensor 'action_net\.weight' holds NaN"),
    "inf weight": (inf_weight, r"model\.zip: policy\.pth: refused: tensor 'mlp_extractor\.value_net\.0\.bias' "
                               r"holds NaN or infinite"),
    "stride-0 view": (stride_0_view, r"model\.zip: policy\.pth: refused: tensor 'action_net\.weight' of shape "
                                     r"\(8589934592,\) is a view larger than the bytes stored for it"),
    "sparse tensor": (sparse_tensor, r"model\.zip: policy\.pth: refused: tensor 'action_net\.weight' is "
                                     r"torch\.sparse_coo, not a dense tensor"),
    "legacy pickle": (legacy_pickle, r"model\.zip: refused: policy\.pth is not in torch's zip format"),
    "huge net_arch": (huge_net_arch, r"config\.yaml: net_arch = \[65536, 65536\]: a policy of \d+ weights, more "
                                     r"than the 16000000"),
    "YAML payload": (yaml_payload, r"config\.yaml: not a configuration this loader reads safely"),
    "YAML alias bomb": (yaml_alias_bomb, r"config\.yaml: not a configuration this loader reads safely "
                                         r"\(aliases \(\*name\) are not read"),
    "huge config": (huge_config, r"config\.yaml: \d+ bytes, more than the 1048576 .*refused unread"),
    "env_kwargs a list": (env_kwargs_not_a_mapping, r"config\.yaml: env_kwargs = \[1, 2\]: expected a mapping"),
}


@pytest.fixture
def crafted(request, clean_run, tmp_path, monkeypatch):
    """(model path, marker, expected message) of one case; the model's folder is on sys.path, so a
    payload module beside it would be importable."""
    craft, match = CASES[request.param]
    model = copy_run(clean_run, tmp_path / "evil")
    marker = tmp_path / "payload-ran"
    craft(model, marker)
    monkeypatch.syspath_prepend(str(model.parent))
    yield model, marker, match
    sys.modules.pop("payload", None)


def one_line_naming(text: str, model: Path, match: str) -> None:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text[-3000:]
    assert str(model.parent) in lines[0] and re.search(match, lines[0]), lines[0]
    assert "Traceback" not in text


@pytest.mark.parametrize("crafted", sorted(CASES), indirect=True)
def test_make_agent_refuses_in_one_line_naming_the_file(crafted):
    model, marker, match = crafted
    env = gym.make(ENV_ID, **ENV_KWARGS)
    with pytest.raises(ModelFileError) as refused:
        make_agent(str(model), env)
    one_line_naming(str(refused.value), model, match)
    assert not marker.exists()


@pytest.mark.parametrize("crafted", sorted(CASES), indirect=True)
def test_evaluate_refuses_in_one_line_exit_2(crafted, tmp_path, capsys):
    from shoot_pontoon_env.evaluate.__main__ import main

    model, marker, match = crafted
    status = run(main, ["--env", ENV_ID, "--env-kwargs", '{"num_players": 2, "stake_levels": [1]}', "--agents",
                        str(model), "--hands", "10", "--no-optimal", "--quiet", "--out", str(tmp_path / "out")])
    out, err = capsys.readouterr()
    assert status == 2 and not out
    assert err.startswith("error: argument --agents: ")
    one_line_naming(err, model, match)
    assert not marker.exists()


@pytest.mark.parametrize("crafted", sorted(CASES), indirect=True)
@pytest.mark.parametrize("as_folder", [False, True], ids=["zip", "folder"])
def test_play_refuses_in_one_line_exit_2(crafted, as_folder, capsys):
    from shoot_pontoon_env.play.terminal import Console, main

    model, marker, match = crafted
    console = Console(io.StringIO(""), io.StringIO())
    spec = str(model.parent if as_folder else model)
    status = main(["--rules", "playtech", "--seats", "2", "--seed", "0", "--opponents", spec], console)
    out, err = capsys.readouterr()
    assert status == 2 and not out and not console.stdout.getvalue()
    assert err.startswith(f"error: trained opponent {spec!r}: ")
    one_line_naming(err, model, match)
    assert not marker.exists()


def test_play_refuses_a_zoo_model_whose_env_id_imports_a_module(clean_run, tmp_path, monkeypatch, capsys):
    """The reported route: ``play --opponents zoo:NAME`` with payload.py in the zoo folder."""
    import shoot_pontoon_env.models.resolve
    from shoot_pontoon_env.play.terminal import Console, main

    monkeypatch.setattr(shoot_pontoon_env.models.resolve, "checkout_zoo", lambda: tmp_path / "zoo")
    model = copy_run(clean_run, tmp_path / "zoo" / "evil")
    marker = tmp_path / "payload-ran"
    module_env_id(model, marker)
    monkeypatch.syspath_prepend(str(model.parent))
    console = Console(io.StringIO(""), io.StringIO())
    status = main(["--rules", "playtech", "--seats", "2", "--opponents", "zoo:evil"], console)
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("error: trained opponent 'zoo:evil': ")
    one_line_naming(err, model, CASES["module env_id"][1])
    assert not marker.exists() and "payload" not in sys.modules


def test_the_module_payload_is_live_for_gym_make(clean_run, tmp_path, monkeypatch):
    """The control: the env id of the crafted config does run payload.py through gym.make."""
    model = copy_run(clean_run, tmp_path / "evil")
    marker = tmp_path / "payload-ran"
    module_env_id(model, marker)
    monkeypatch.syspath_prepend(str(model.parent))
    try:
        gym.make(yaml.safe_load((model.parent / "config.yaml").read_text())["env_id"], **ENV_KWARGS)
    finally:
        sys.modules.pop("payload", None)
    assert marker.is_dir()


def test_a_run_folder_plays_and_the_policy_size_is_counted_exactly(clean_run, capsys):
    """The clean model loads from its .zip and from its folder (play and make_agent), and the weights
    counted without building the policy are the built policy's."""
    from shoot_pontoon_env.play.terminal import Console, main

    env = gym.make(ENV_ID, **ENV_KWARGS)
    for spec in (clean_run, clean_run / "model.zip"):
        agent = make_agent(str(spec), env)
        obs, info = env.reset(seed=0)
        assert info["action_mask"][agent.choose(obs, info["action_mask"], np.random.default_rng(0))]
        console = Console(io.StringIO(""), io.StringIO())
        assert main(["--rules", "playtech", "--seats", "2", "--seed", "0", "--opponents", str(spec)], console) == 0
        assert "Final chips" in console.stdout.getvalue()
    weights = sum(t.numel() for t in agent.policy.state_dict().values())
    inputs, actions = agent.policy.observation_space.shape[0], agent.policy.action_space.n
    assert policy_parameters(agent.config.net_arch, inputs, actions) == weights


def test_a_huge_declared_entry_is_refused_before_decompressing_in_little_memory(clean_run, tmp_path):
    """In a fresh process: refused from the declared sizes (before torch is even imported), the
    peak memory growing by no more than a few MB and under the 500 MB bar. The Table engine keeps the
    batched engine's compiler (a first-use cost of its own) out of the figure."""
    for craft in (huge_declared_entry, zeros_bomb, inner_bomb):
        model = copy_run(clean_run, tmp_path / craft.__name__)
        craft(model, tmp_path / "unused")
        code = PEAK_MB + (
            "import sys\n"
            "import gymnasium as gym\n"
            "import shoot_pontoon_env.envs\n"
            "from agents import make_agent\n"
            "from shoot_pontoon_env.models.safe_load import ModelFileError\n"
            f"env = gym.make({ENV_ID!r}, **{ENV_KWARGS!r}, engine='table')\n"
            "import agents.trained\n"
            "before = peak_mb()\n"
            "try:\n"
            f"    make_agent({str(model)!r}, env)\n"
            "except ModelFileError as error:\n"
            "    print('refused', error)\n"
            "peak = peak_mb()\n"
            "print(f'{peak - before} {peak} {int(\"torch\" in sys.modules)}')\n"
        )
        result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                                timeout=HANG_GUARD_S)
        assert result.returncode == 0, result.stderr[-3000:]
        refused, figures = result.stdout.strip().splitlines()
        assert refused.startswith("refused ") and "before decompressing" in refused, refused
        growth_mb, peak_mb, torch_imported = (float(v) for v in figures.split())
        assert growth_mb < 20 and peak_mb < 500 and not torch_imported, (craft.__name__, figures)


def test_train_resume_refuses_a_huge_declared_entry_before_building_anything(clean_run, tmp_path):
    """``train --resume`` checks the checkpoint's declared sizes before it makes the envs or the model:
    a fresh process refuses the bombs in little memory, without importing torch (speed is not asserted)."""
    for craft in (huge_declared_entry, zeros_bomb):
        model = copy_run(clean_run, tmp_path / craft.__name__)
        craft(model, tmp_path / "unused")
        argv = ["--config", str(PLAYTECH), "--set", *TINY, f"log_dir={tmp_path / 'runs'}", "--resume", str(model)]
        code = PEAK_MB + (
            "import sys\n"
            "from shoot_pontoon_env.cli import run\n"
            "from train.__main__ import main\n"
            f"status = run(main, {argv!r})\n"
            "peak = peak_mb()\n"
            "print(status, peak, int('torch' in sys.modules))\n"
        )
        result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                                timeout=HANG_GUARD_S)
        one_line_naming(result.stderr, model, r"^error: argument --resume: .*entry policy\.pth: declares \d+")
        status, peak_mb, torch_imported = result.stdout.split()
        assert status == "2", result.stdout
        assert int(peak_mb) < 500 and torch_imported == "0", result.stdout


# --------------------------------------------------------------------------- train --resume
def extra_pickled_entry(model: Path, marker: Path) -> None:
    """An extra ``.pth`` entry holding a bare pickle, which SB3's own loader would read (and fail on)."""
    rewrite_zip(model, {"extra.pth": pickle.dumps(Payload(marker))})


def pickled_variables(model: Path, marker: Path) -> None:
    rewrite_zip(model, {"pytorch_variables.pth": pickle.dumps(Payload(marker))})


def tensor_payload_in_optimizer(model: Path, marker: Path) -> None:
    rewrite_zip(model, {"policy.optimizer.pth": torch_bytes({"state": Payload(marker)})})


def nan_optimizer_moment(model: Path, marker: Path) -> None:
    import torch

    optimizer = torch.load(io.BytesIO(entries_of(model)["policy.optimizer.pth"]), weights_only=True)
    optimizer["state"] = {0: {"step": torch.tensor(1.0), "exp_avg": torch.full((2,), float("nan")),
                              "exp_avg_sq": torch.zeros(2)}}
    rewrite_zip(model, {"policy.optimizer.pth": torch_bytes(optimizer)})


def huge_optimizer_entry(model: Path, marker: Path) -> None:
    model.write_bytes(declare_size(model.read_bytes(), "policy.optimizer.pth", GIB))


RESUME_CASES: dict[str, tuple[Callable[[Path, Path], None], str]] = {
    "extra pickled entry": (extra_pickled_entry, r"model\.zip: refused: unexpected entry extra\.pth"),
    "pickled pytorch_variables": (pickled_variables, r"model\.zip: refused: pytorch_variables\.pth is not in "
                                                     r"torch's zip format"),
    "payload in the optimizer": (tensor_payload_in_optimizer, r"model\.zip: refused: policy\.optimizer\.pth holds "
                                                              r"more than tensors"),
    "NaN optimizer moment": (nan_optimizer_moment, r"model\.zip: policy\.optimizer\.pth: refused: tensor "
                                                   r"'state\.0\.exp_avg' holds NaN"),
    "huge optimizer entry": (huge_optimizer_entry, r"model\.zip: entry policy\.optimizer\.pth: declares "
                                                   r"1073741824 bytes"),
    "NaN weight": (nan_weight, r"model\.zip: policy\.pth: refused: tensor 'action_net\.weight' holds NaN"),
    "huge declared entry": (huge_declared_entry, r"model\.zip: entry policy\.pth: declares 1073741824 bytes"),
}


@pytest.mark.parametrize("case", sorted(RESUME_CASES))
def test_train_resume_refuses_in_one_line_exit_2(case, clean_run, tmp_path, capsys):
    from train.__main__ import main

    craft, match = RESUME_CASES[case]
    model = copy_run(clean_run, tmp_path / "evil")
    marker = tmp_path / "payload-ran"
    craft(model, marker)
    status = run(main, ["--config", str(PLAYTECH), "--set", *TINY, f"log_dir={tmp_path / 'runs'}",
                        "run_name=resumed", "--resume", str(model)])
    out, err = capsys.readouterr()
    assert status == 2 and not out
    assert err.startswith("error: argument --resume: ")
    one_line_naming(err, model, match)
    assert not marker.exists() and not (tmp_path / "runs" / "resumed-seed0" / "model.zip").exists()


def test_train_resume_of_a_clean_checkpoint_still_continues(clean_run, tmp_path, capsys):
    from train.__main__ import main

    status = run(main, ["--config", str(PLAYTECH), "--set", *TINY, f"log_dir={tmp_path}", "run_name=resumed",
                        "--resume", str(clean_run / "model.zip")])
    assert status == 0, capsys.readouterr().err[-3000:]
    assert (tmp_path / "resumed-seed0" / "model.zip").is_file()


# --------------------------------------------------------------------------- an rl-baselines3-zoo run folder
ZOO_ARGS = f"algo: ppo_mask\nenv: {ENV_ID}\nenv_kwargs:\n  num_players: 2\n  stake_levels: [1]\n"
ZOO_CONFIG = ("!!python/object/apply:collections.OrderedDict\n- - - env_wrapper\n    - "
              "shoot_pontoon_env.envs.features.CompactObservation\n"
              "  - - policy_kwargs\n    - dict(net_arch=[64, 64])\n")
"""A ``config.yml`` as rl-baselines3-zoo writes it (an OrderedDict of the hyperparameters)."""


def zoo_run(clean: Path, root: Path, config: str = ZOO_CONFIG, args: str = ZOO_ARGS) -> Path:
    """An rl-baselines3-zoo run folder: ``<run>/model.zip`` beside ``<run>/<env>/config.yml, args.yml``."""
    (root / ENV_ID).mkdir(parents=True)
    (root / ENV_ID / "config.yml").write_text(config)
    (root / ENV_ID / "args.yml").write_text(args)
    (root / "model.zip").write_bytes((clean / "model.zip").read_bytes())
    return root / "model.zip"


ZOO_CASES = {
    "OrderedDict tag on a mapping": ("config.yml", "!!python/object/apply:collections.OrderedDict {a: 1}\n",
                                     r"config\.yml: not a configuration this loader reads safely .*OrderedDict"),
    "OrderedDict tag on text": ("config.yml", "!!python/object/apply:collections.OrderedDict abc\n",
                                r"config\.yml: not a configuration this loader reads safely .*OrderedDict"),
    "OrderedDict of non-pairs": ("config.yml", "!!python/object/apply:collections.OrderedDict\n- [1, 2, 3]\n",
                                 r"config\.yml: not a configuration this loader reads safely .*OrderedDict"),
    "tuple tag on a mapping": ("config.yml", "policy_kwargs: !!python/tuple {a: 1}\n",
                               r"config\.yml: not a configuration this loader reads safely"),
    "an object tag": ("config.yml", "policy_kwargs: !!python/object/new:os.mkdir [MARKER]\n",
                      r"config\.yml: not a configuration this loader reads safely"),
    "module env": ("args.yml", f"algo: ppo_mask\nenv: payload:{ENV_ID}\n",
                   r"args\.yml: env_id = 'payload:ShootPontoon-Playtech-v0': expected one of this package's ids"),
}


def test_the_zoo_run_folder_of_the_cases_loads_when_clean(clean_run, tmp_path):
    env = gym.make(ENV_ID, **ENV_KWARGS)
    agent = make_agent(str(zoo_run(clean_run, tmp_path / "zoo")), env)
    assert agent.observation == "compact" and agent.config.env_id == ENV_ID


def test_a_zoo_run_of_the_compact_env_loads_as_compact(clean_run, tmp_path):
    """hyperparams/ppo_mask.yml makes the env with observation='compact' (no wrapper)."""
    config = "policy_kwargs: dict(net_arch=[64, 64])\nenv_kwargs: {observation: compact}\n"
    agent = make_agent(str(zoo_run(clean_run, tmp_path / "zoo", config)), gym.make(ENV_ID, **ENV_KWARGS))
    assert agent.observation == "compact" and "observation" not in agent.config.env_kwargs
    bad = zoo_run(clean_run, tmp_path / "bad", "env_kwargs: {observation: pixels}\n")
    with pytest.raises(ModelFileError, match="env_kwargs observation = 'pixels': expected 'flat' or 'compact'"):
        make_agent(str(bad), gym.make(ENV_ID, **ENV_KWARGS))


@pytest.mark.parametrize("case", sorted(ZOO_CASES))
def test_an_odd_zoo_config_is_a_one_line_model_file_error(case, clean_run, tmp_path, capsys):
    from shoot_pontoon_env.evaluate.__main__ import main

    name, text, match = ZOO_CASES[case]
    marker = tmp_path / "payload-ran"
    files = {"config": ZOO_CONFIG, "args": ZOO_ARGS, name.split(".")[0]: text.replace("MARKER", str(marker))}
    model = zoo_run(clean_run, tmp_path / "zoo", files["config"], files["args"])
    with pytest.raises(ModelFileError) as refused:
        make_agent(str(model), gym.make(ENV_ID, **ENV_KWARGS))
    one_line_naming(str(refused.value), model, match)
    status = run(main, ["--env", ENV_ID, "--env-kwargs", '{"num_players": 2, "stake_levels": [1]}', "--agents",
                        str(model), "--hands", "10", "--no-optimal", "--quiet", "--out", str(tmp_path / "out")])
    out, err = capsys.readouterr()
    assert status == 2 and not out
    one_line_naming(err, model, match)
    assert not marker.exists()

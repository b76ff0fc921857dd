"""The model zoo: committed trained models (``agents/zoo/NAME/model.zip`` with its ``config.yaml``),
loadable by name (``zoo:NAME``).

A trained model is the package's :class:`~shoot_pontoon_env.models.trained.TrainedPlayer` (a policy
over observations, and so a table player too): loading never unpickles, the policy is rebuilt from
the run's configuration and the tensors are read with torch's weights-only loader
(``shoot_pontoon_env/models/safe_load.py``), so a crafted ``.zip`` cannot run code. This module names
this folder's zoo.
"""

from __future__ import annotations

from pathlib import Path

from shoot_pontoon_env.models import trained as _trained

ZOO = Path(__file__).parent / "zoo"


def zoo_models() -> list[str]:
    """Names of the committed trained models."""
    return _trained.zoo_models(ZOO)


def zoo_path(name: str) -> Path:
    return _trained.zoo_path(name, ZOO)


def model_file(spec: str | Path) -> Path:
    """The model a spec names: ``zoo:NAME``, a model ``.zip``, a run folder holding ``model.zip``, or
    else the bare name of a zoo model; a path that names nothing is refused in one line."""
    return _trained.model_file(spec, ZOO)


def trained_agent(path: str | Path, *, deterministic: bool = True, name: str | None = None):
    """The model ``path`` names (``zoo:NAME`` of this zoo, a ``.zip``, a run folder), unbound: a
    :class:`~shoot_pontoon_env.models.trained.TrainedPlayer`, rebuilt for an env's spaces when it is
    bound to it."""
    return _trained.TrainedPlayer(path, deterministic=deterministic, name=name, zoo=ZOO)

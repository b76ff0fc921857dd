"""rl-baselines3-zoo with MaskablePPO.

``python -m shoot_pontoon_env.integrations.zoo [zoo train options]`` is the zoo's own ``train``
script (``rl_zoo3.train``) with one algorithm more: ``--algo ppo_mask``, sb3-contrib's MaskablePPO,
whose periodic evaluations (``--eval-freq``, ``--eval-episodes``) play with action masks
(sb3-contrib's ``MaskableEvalCallback`` in place of the zoo's ``EvalCallback``, which would call
``predict`` without masks). Every other option, the hyperparameter files (``hyperparams/ppo_mask.yml``)
and the log folders are the zoo's; other algorithms run as under ``python -m rl_zoo3.train``, except
that the evaluation env gets the hyperparameter file's ``env_kwargs`` too (see
:func:`register_maskable_ppo`). Commands: docs/ECOSYSTEM.md.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

MASKABLE_ALGO = "ppo_mask"


def _algo(argv: Sequence[str]) -> str | None:
    for index, item in enumerate(argv):
        if item == "--algo" and index + 1 < len(argv):
            return argv[index + 1]
        if item.startswith("--algo="):
            return item.split("=", 1)[1]
    return None


def register_maskable_ppo(masked_evaluation: bool) -> None:
    """Add ``ppo_mask`` to the zoo's algorithms; with ``masked_evaluation`` its evaluations use masks.

    Also makes the evaluation env take the hyperparameter file's ``env_kwargs`` (the zoo 2.9 gives
    them to the training envs only, unless they come from ``--env-kwargs``), so that both envs have
    the same spaces."""
    from rl_zoo3 import exp_manager, utils
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback

    utils.ALGOS.setdefault(MASKABLE_ALGO, MaskablePPO)
    if masked_evaluation:
        exp_manager.EvalCallback = MaskableEvalCallback  # the name create_callbacks() builds
    manager = exp_manager.ExperimentManager
    if not getattr(manager, "_shoot_pontoon_eval_kwargs", False):
        preprocess = manager._preprocess_hyperparams

        def preprocess_with_eval_kwargs(self: Any, hyperparams: dict[str, Any]) -> Any:
            result = preprocess(self, hyperparams)
            if hasattr(self, "eval_env_kwargs") and getattr(self, "_eval_env_kwargs_args", None) is None:
                self.eval_env_kwargs = self.env_kwargs
            return result

        manager._preprocess_hyperparams = preprocess_with_eval_kwargs
        manager._shoot_pontoon_eval_kwargs = True


def main(argv: Sequence[str] | None = None) -> Any:
    args = list(sys.argv[1:] if argv is None else argv)
    register_maskable_ppo(masked_evaluation=_algo(args) == MASKABLE_ALGO)
    from rl_zoo3.train import train

    sys.argv = ["python -m shoot_pontoon_env.integrations.zoo", *args]
    return train()


if __name__ == "__main__":
    main()

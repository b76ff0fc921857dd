"""rl-baselines3-zoo with MaskablePPO.

``python -m shoot_pontoon_env.integrations.zoo [zoo train options]`` is the zoo's own ``train``
script (``rl_zoo3.train``) with one algorithm more: ``--algo ppo_mask``, sb3-contrib's MaskablePPO,
whose periodic evaluations (``--eval-freq``, ``--eval-episodes``) play with action masks
(sb3-contrib's ``MaskableEvalCallback`` in place of the zoo's ``EvalCallback``, which would call
``predict`` without masks). Hyperparameter search (``-optimize``) works for it too: it samples as for
``ppo`` and its trials are judged by masked evaluations (:class:`MaskableTrialEvalCallback`). Every
other option, the hyperparameter files (``hyperparams/ppo_mask.yml``) and the log folders are the
zoo's; other algorithms run as under ``python -m rl_zoo3.train``, except that the evaluation env gets
the hyperparameter file's ``env_kwargs`` too (see :func:`register_maskable_ppo`). The zoo's ``enjoy``
with masks: ``shoot_pontoon_env.integrations.zoo_enjoy``. Commands: docs/ECOSYSTEM.md.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from rl_zoo3.callbacks import TrialEvalCallback
from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback

MASKABLE_ALGO = "ppo_mask"


class MaskableTrialEvalCallback(TrialEvalCallback, MaskableEvalCallback):
    """The zoo's optuna trial callback (report to the trial, prune) over sb3-contrib's masked
    evaluation: ``TrialEvalCallback._on_step`` calls ``super()._on_step()``, which this base order
    makes ``MaskableEvalCallback``'s, so a trial is scored with masks, not by the -2.0 of an illegal
    first action."""


def _algo(argv: Sequence[str]) -> str | None:
    for index, item in enumerate(argv):
        if item == "--algo" and index + 1 < len(argv):
            return argv[index + 1]
        if item.startswith("--algo="):
            return item.split("=", 1)[1]
    return None


def register_maskable_ppo(masked_evaluation: bool) -> None:
    """Add ``ppo_mask`` to the zoo's algorithms and to its hyperparameter search (PPO's sampler and
    converter: MaskablePPO takes PPO's arguments); with ``masked_evaluation`` its evaluations, those
    of ``--eval-freq`` and those of the ``-optimize`` trials, use masks.

    Also makes the evaluation env take the hyperparameter file's ``env_kwargs`` (the zoo 2.9 gives
    them to the training envs only, unless they come from ``--env-kwargs``), so that both envs have
    the same spaces."""
    from rl_zoo3 import exp_manager, hyperparams_opt, utils
    from sb3_contrib import MaskablePPO

    utils.ALGOS.setdefault(MASKABLE_ALGO, MaskablePPO)
    hyperparams_opt.HYPERPARAMS_SAMPLER.setdefault(MASKABLE_ALGO, hyperparams_opt.sample_ppo_params)
    hyperparams_opt.HYPERPARAMS_CONVERTER.setdefault(MASKABLE_ALGO, hyperparams_opt.convert_onpolicy_params)
    if masked_evaluation:
        exp_manager.EvalCallback = MaskableEvalCallback  # the name create_callbacks() builds
        exp_manager.TrialEvalCallback = MaskableTrialEvalCallback  # the name objective() builds
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

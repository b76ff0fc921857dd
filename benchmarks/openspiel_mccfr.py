"""OpenSpiel's outcome-sampling MCCFR on ``python_shoot_pontoon``'s heads-up reduced game without buys, its
average policy's exploitability measured at checkpoints by this project's exact best-response code
(``shoot_pontoon_env.openspiel.measure``), beside the wall time.

Run: ``.venv/bin/python benchmarks/openspiel_mccfr.py [--checkpoints 1000 4000 16000 64000] [--seed 0]``
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import outcome_sampling_mccfr

from shoot_pontoon_env.openspiel import GAME_NAME
from shoot_pontoon_env.openspiel.measure import exploitability
from checkpoints import trained_to  # benchmarks/checkpoints.py (the script's own folder)

GAME = f"{GAME_NAME}(players=2,reduced=True,max_buys=0)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", type=int, nargs="+", default=[1000, 4000, 16000, 64000])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    np.random.seed(args.seed)  # OpenSpiel's MCCFR samples with NumPy's global generator
    game = pyspiel.load_game(GAME)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for done, training in trained_to(args.checkpoints, solver.iteration):
        begin = time.perf_counter()
        measured = exploitability(game, solver.average_policy())
        print(json.dumps({"iterations": done, "training_seconds": round(training, 1),
                          "information_states": len(solver._infostates), **measured.to_dict(),
                          "measure_seconds": round(time.perf_counter() - begin, 1)}), flush=True)


if __name__ == "__main__":
    main()

# Two set-up commands from a fresh clone (see README.md):
#   make demo   install everything and run the main job
#   make test   install everything and run the tests
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# The CPU build of torch where this machine has it; a plain install elsewhere.
CONSTRAINTS := $(shell $(PYTHON) -m pip install --dry-run --no-index --no-deps -q torch==2.13.0 >/dev/null 2>&1 && echo -c constraints/cpu.txt)

.PHONY: install demo simulate test benchmark clean install-rllib test-rllib

$(PY):
	$(PYTHON) -m venv $(VENV)

install: $(PY)
	$(PY) -m pip install -q $(CONSTRAINTS) -e ".[train,dev,multiagent]"
	$(PY) -m shoot_pontoon_env.compile  # every part of the batched engine into numba's cache, once

# The main job: train a MaskablePPO punter on Playtech Pontoon with the committed configuration on the
# batched engine (torch on both cores), then evaluate it against the random, basic-strategy and optimal
# agents on the same hands, its checkpoints measured on those hands too (the learning curve). Run again,
# it replaces the earlier run (--overwrite, said in one line).
# 6M as 367 whole rollouts of 256 x 64 (python -m train refuses a total it cannot end on exactly)
DEMO_STEPS ?= 6012928
DEMO_HANDS ?= 100000
DEMO_SEED ?= 0
DEMO_RUN := runs/demo-seed$(DEMO_SEED)
# Two torch threads, idle ones asleep: OpenMP's default spin-wait made two 3-10x slower than one beside a busy process.
demo: install
	OMP_WAIT_POLICY=PASSIVE $(PY) -m train --config train/configs/playtech_punter.yml \
		--set total_timesteps=$(DEMO_STEPS) seed=$(DEMO_SEED) torch_threads=2 checkpoint_freq=500000 run_name=demo \
		log_dir=runs --overwrite
	$(PY) -m evaluate --env ShootPontoon-Playtech-v0 --env-kwargs '{"num_players": 2, "stake_levels": [1]}' \
		--agents random basic optimal $(DEMO_RUN)/model.zip --hands $(DEMO_HANDS) --out reports/demo \
		--learning-curve $(DEMO_RUN)

simulate: install
	$(PY) -m shoot_pontoon_env.simulate

# ruff's check first (the rules of pyproject.toml's [tool.ruff]), then the tests.
test: install
	$(PY) -m ruff check .
	$(PY) -m pytest -q -n 2 --dist worksteal -m "not slow"

# Long checks and measurements (not in CI): the slow tests, then each benchmark script.
benchmark: install
	$(PY) -m pytest -q -m slow
	$(PY) benchmarks/engine_throughput.py
	$(PY) benchmarks/vector_throughput.py
	$(PY) benchmarks/numpy_vs_numba.py
	$(PY) benchmarks/evaluation_speed.py
	$(PY) benchmarks/scalar_env_speed.py
	$(PY) benchmarks/env_random_play.py
	$(PY) benchmarks/solver_validation.py --hands 1000000 --workers 2
	$(PY) benchmarks/scaling.py
	$(PY) benchmarks/training_time.py

# Ray RLlib pins its own Gymnasium: it gets a venv of its own, where the whole suite runs again
# (the package under Ray's Gymnasium) with the RLlib smoke tests (skipped in .venv).
VENV_RAY ?= .venv-ray
install-rllib:
	$(PYTHON) -m venv $(VENV_RAY)
	$(VENV_RAY)/bin/python -m pip install -q $(CONSTRAINTS) -e ".[rllib,train,dev,multiagent]"
	$(VENV_RAY)/bin/python -m shoot_pontoon_env.compile

test-rllib: install-rllib
	$(VENV_RAY)/bin/python -m pytest -q -n 2 -m "not slow"

clean:
	rm -rf $(VENV) $(VENV_RAY) build *.egg-info

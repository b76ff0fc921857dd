# Two set-up commands from a fresh clone (see README.md):
#   make demo   install everything and run the main job
#   make test   install everything and run the tests
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# The CPU build of torch where this machine has it; a plain install elsewhere.
CONSTRAINTS := $(shell $(PYTHON) -m pip install --dry-run --no-index --no-deps -q torch==2.13.0 >/dev/null 2>&1 && echo -c constraints/cpu.txt)

.PHONY: install demo test benchmark clean

$(PY):
	$(PYTHON) -m venv $(VENV)

install: $(PY)
	$(PY) -m pip install -q $(CONSTRAINTS) -e ".[train,dev]"

demo: install
	$(PY) -m shoot_pontoon_env.simulate

test: install
	$(PY) -m pytest -q -n 2 -m "not slow"

benchmark: install
	$(PY) -m pytest -q -m slow
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) build *.egg-info

# Every step a fresh machine needs is here: `make run` and `make test` create .venv and install into it.
PY ?= python3
# On a Raspberry Pi: `make run VENV_FLAGS=--system-site-packages` lets the venv see apt's python3-picamera2.
VENV_FLAGS ?=
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test slow bench lint typecheck install clean

$(BIN)/python:
	$(PY) -m venv $(VENV_FLAGS) $(VENV)

# Re-install only when the project's metadata changes; the install is editable, so code edits need none.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,hints]'
	touch $(STAMP)

install: $(STAMP)

# `make run` serves the station's page on http://127.0.0.1:8080/ (a free port when 8080 is taken) and
# paces the demo to it, an event a second: under a minute, then it ends by itself. HOLD=600 keeps the
# page open ten minutes after the game, the station still taking the referee's actions; PIN=246813
# lets the referee act there; WEB= serves no page.
WEB ?= auto
HOLD ?=
PIN ?=
run: $(STAMP)
	$(BIN)/tavla run $(if $(WEB),--web $(WEB)) $(if $(HOLD),--hold $(HOLD)) $(if $(PIN),--pin $(PIN))

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy --strict controller firmware_bridge

# The suite runs on every core (pytest-xdist), two processes a core: many tests wait on a subprocess,
# a browser or a broker, and a second process keeps the core busy meanwhile.
WORKERS ?= $(shell echo $$((2 * $$(nproc 2>/dev/null || echo 1))))
test: $(STAMP) lint typecheck
	$(BIN)/python -m pytest -q -n $(WORKERS)

slow: $(STAMP)
	$(BIN)/python -m pytest -q -n $(WORKERS) -m slow

# The benchmarks also install the pure-Python peer they measure against (the `bench` extra).
$(VENV)/.bench-installed: pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,hints,bench]'
	touch $@

bench: $(VENV)/.bench-installed
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

# Retrain the dice network (vision/dice/assets/dice_cnn.onnx + dice_cls.onnx, checked on the photos of one
# fold held out first) in a venv of its own under build/, so PyTorch never enters .venv or CI. About
# an hour on 2 cores.
TRAIN_VENV := build/train-venv
$(TRAIN_VENV)/.installed: pyproject.toml
	$(PY) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/python -m pip install --quiet -e '.[train]'
	touch $@

.PHONY: train-dice
train-dice: $(TRAIN_VENV)/.installed
	nice $(TRAIN_VENV)/bin/python -m training.dice_cnn --folds 2 --only-fold 0 --write

# Retrain the per-point stack counter (vision/checkers/assets/stacks_cnn.onnx) in the same training
# venv: strips of 2500 randomised renders (nine seeds: plain, surfaced, cut where a finder errs) and
# of the labelled photos, then renders-only training and fine-tuning on renders + photos. About 30
# minutes on one core; `make lobo-stacks` about 14 more (5 of them pretraining when
# build/stacks/pretrained.pt is absent; 3 inner folds a family for its rule).
STACK_DATA := build/stacks
.PHONY: train-stacks lobo-stacks
$(STACK_DATA)/real.npz: | $(TRAIN_VENV)/.installed
	OMP_NUM_THREADS=1 nice $(TRAIN_VENV)/bin/python -m training.stacks_data --renders 200 --seed 1 --out $(STACK_DATA)
	OMP_NUM_THREADS=1 nice $(TRAIN_VENV)/bin/python -m training.stacks_data --renders 200 --seed 2 --out $(STACK_DATA) --no-real
	OMP_NUM_THREADS=1 nice $(TRAIN_VENV)/bin/python -m training.stacks_data --renders 300 --seed 3 --out $(STACK_DATA) --no-real
	OMP_NUM_THREADS=1 nice $(TRAIN_VENV)/bin/python -m training.stacks_data --renders 300 --seed 4 --out $(STACK_DATA) --no-real
	OMP_NUM_THREADS=1 nice $(TRAIN_VENV)/bin/python -m training.stacks_data --renders 300 --seed 5 --out $(STACK_DATA) --no-real --surface 0.8
	OMP_NUM_THREADS=1 nice $(TRAIN_VENV)/bin/python -m training.stacks_data --renders 300 --seed 6 --out $(STACK_DATA) --no-real --surface 0.8
	OMP_NUM_THREADS=1 nice $(TRAIN_VENV)/bin/python -m training.stacks_data --renders 300 --seed 7 --out $(STACK_DATA) --no-real --surface 0.8
	OMP_NUM_THREADS=1 nice $(TRAIN_VENV)/bin/python -m training.stacks_data --renders 300 --seed 8 --out $(STACK_DATA) --no-real --surface 0.5 --finder 0.7
	OMP_NUM_THREADS=1 nice $(TRAIN_VENV)/bin/python -m training.stacks_data --renders 300 --seed 9 --out $(STACK_DATA) --no-real --surface 0.5 --finder 0.7

train-stacks: $(TRAIN_VENV)/.installed $(STACK_DATA)/real.npz
	OMP_NUM_THREADS=1 nice $(TRAIN_VENV)/bin/python -m training.stacks_cnn --data $(STACK_DATA) --epochs 10 --write

# Leave one board family out: the per-family table of the stack counter beside the classical reader.
lobo-stacks: $(TRAIN_VENV)/.installed $(STACK_DATA)/real.npz
	OMP_NUM_THREADS=1 nice $(TRAIN_VENV)/bin/python -m training.stacks_lobo --data $(STACK_DATA)

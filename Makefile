# Every target creates .venv on first use and (re)installs when pyproject.toml changes.
PYTHON ?= python3
VENV   ?= .venv
# The machines here carry a CPU build of torch 2.13.0; an unpinned torch pulls a multi-GB CUDA build.
TORCH  ?= torch==2.13.0
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# pytest-xdist workers; the machines have 2 cores.
JOBS   ?= 2

BENCH_STAMP := $(VENV)/.installed-bench
# Compiled engines: python -m envs.warmup fills numba's cache once after installing, and again
# after a source change (it compiles only what is not cached, one line per game).
WARM_STAMP  := $(VENV)/.warm
SOURCES     := $(shell find envs agents training -name '*.py' 2>/dev/null)

.PHONY: demo test bench install clean notebooks

$(STAMP): pyproject.toml Makefile
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet $(TORCH) -e ".[train,dev,distributed,openspiel]"
	touch $(STAMP)

$(WARM_STAMP): $(STAMP) $(SOURCES)
	$(PY) -m envs.warmup
	touch $(WARM_STAMP)

install: $(WARM_STAMP)

demo: $(WARM_STAMP)
	$(PY) -m training.demo

test: $(WARM_STAMP)
	$(PY) -m pytest -n $(JOBS) tests --nbmake notebooks

# Run the notebooks again and store their outputs in them (committed, so the web shows them).
notebooks: $(WARM_STAMP)
	$(PY) notebooks/execute.py

# The peers (PettingZoo classic card games, RLCard, Pgx on jax) are installed only for benchmarks;
# OpenSpiel comes with the openspiel extra (the bridge and its tests).
$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet $(TORCH) -e ".[train,dev,distributed,openspiel,bench]"
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(PY) -m benchmarks.run_all --quick

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

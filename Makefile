# moji — two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q

.PHONY: run test lint typecheck pytest bench lexicon fuzz soak clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.run-installed: pyproject.toml | $(VENV)/bin/python
	$(PIP) install -e .
	@touch $@

$(VENV)/.dev-installed: pyproject.toml | $(VENV)/bin/python
	$(PIP) install -e '.[dev]'
	@touch $@ $(VENV)/.run-installed

## run: start the bot (with no tokens configured: a terminal game against computer players)
run: $(VENV)/.run-installed
	$(PY) -m bot $(ARGS)

## test: ruff, mypy (strict on bot/ and games/) and pytest
test: lint typecheck pytest

lint: $(VENV)/.dev-installed
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: $(VENV)/.dev-installed
	$(PY) -m mypy bot games storage adapters

pytest: $(VENV)/.dev-installed
	$(PY) -m pytest $(PYTEST_ARGS)

## bench: every benchmark, printing JSON
bench: $(VENV)/.dev-installed
	@for b in bench/bench_*.py; do echo "# $$b"; $(PY) $$b || exit 1; done

## lexicon: rebuild games/lexicon/data from Debian scowl + wordnet-base (see docs/LEXICON.md)
lexicon: $(VENV)/.dev-installed
	$(PIP) install -e '.[dev,lexicon-build]'
	$(PY) -m games.lexicon.build

## fuzz: longer property-test runs (opt-in); tests/hardening fuzzes every inbound path
fuzz: $(VENV)/.dev-installed
	MOJI_FUZZ=long $(PY) -m pytest -m "not postgres" tests

## soak: the real bot process against the fake Discord, 1,000 channels racing for 10 minutes
## (opt-in; SOAK_CHANNELS, SOAK_SECONDS, SOAK_THINK="MIN,MAX" seconds players take to answer,
## SOAK_OPTIONS: more race options; see docs/RELIABILITY.md)
SOAK_CHANNELS ?= 1000
SOAK_SECONDS ?= 600
SOAK_THINK ?= 20,60
SOAK_OPTIONS ?= hourglass=90
soak: $(VENV)/.dev-installed
	$(PY) bench/soak.py --channels $(SOAK_CHANNELS) --seconds $(SOAK_SECONDS) --think $(SOAK_THINK) \
		--options "$(SOAK_OPTIONS)" --sample 10

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .pytest_cache

# moji — two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q

.PHONY: messages run test test-random lint typecheck pytest bench bench-processes bench-slack-busy bench-discord-busy flood endings lexicon fuzz soak crash clean lock lowest image-check

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

## pytest: the tests on $(PYTEST_WORKERS) pytest-xdist workers; the tests that run moji as processes
## are two groups, each on one worker, one test after another (tests/conftest.py). They mostly wait
## on real leases, so a third worker keeps both cores busy meanwhile (docs/RELIABILITY.md: 16 %
## faster than two, side by side). PYTEST_WORKERS=0: in this process.
PYTEST_WORKERS ?= 3
XDIST = $(if $(filter 0,$(PYTEST_WORKERS)),-p no:xdist,-n $(PYTEST_WORKERS) --dist loadgroup)
pytest: $(VENV)/.dev-installed
	$(PY) -m pytest $(XDIST) $(PYTEST_ARGS)

## test-random: pytest with the tests in a random order (pytest-randomly, which also reseeds
## `random` before each test); it prints its seed, and RANDOM_SEED=N repeats that order
ifeq ($(RANDOM_SEED),)
RANDOM_SEED := $(shell od -An -N3 -tu4 /dev/urandom | tr -d ' ')
endif
test-random: $(VENV)/.dev-installed
	@echo "test-random: seed $(RANDOM_SEED) (make test-random RANDOM_SEED=$(RANDOM_SEED) repeats this order)"
	$(PY) -m pytest $(XDIST) -p randomly --randomly-seed=$(RANDOM_SEED) $(PYTEST_ARGS)

## bench: every benchmark, printing JSON
bench: $(VENV)/.dev-installed
	@for b in bench/bench_*.py; do echo "# $$b"; $(PY) $$b || exit 1; done

## endings: computer-only games of every game in every language (en de fr es nl), straight through
## the engines: each must end (0 capped, 0 crashed) with cards and tiles conserved, scores equal to
## the moves and no hand or rack in public text; ENDINGS_GAMES per game and language, ENDINGS_ARGS
## more (--games-only race,shed --languages en,de --cap N); prints JSON (see docs/RELIABILITY.md)
ENDINGS_GAMES ?= 200
ENDINGS_ARGS ?=
endings: $(VENV)/.dev-installed
	$(PY) bench/bench_endings.py --games $(ENDINGS_GAMES) $(ENDINGS_ARGS)

## flood: one person sends 300 slash commands in a second on Slack and on Discord (the real apps on
## the fakes); every other person's answer within 2 s at p99 (part of `make bench` too; FLOOD_ARGS:
## --flood N --seconds S --others N --only slack|discord --without-fair-share; see SECURITY.md)
FLOOD_ARGS ?=
flood: $(VENV)/.dev-installed
	$(PY) bench/bench_flood.py $(FLOOD_ARGS)

## messages: extract every message of games/, bot/ and adapters/ into the catalogue's template
## (games/common/locale/moji.pot) and bring each language's catalogue up to date with it
## (new messages untranslated, gone ones dropped; docs/LANGUAGES.md says how to translate them)
LOCALE_DIR = games/common/locale
messages: $(VENV)/.dev-installed
	$(PY) -m games.common.catalogue update

## lexicon: rebuild games/lexicon/data from Debian scowl + wordnet-base (English) and the word lists
## and Hunspell dictionaries of Dutch, French, German and Spanish, and the glosses (`define`) from
## WordNet, Ding (dict-de-en) and FreeDict (dict-freedict-*-eng), installing the dictionaries
## with apt-get (sudo unless root) if they are missing (see docs/LEXICON.md)
lexicon: $(VENV)/.dev-installed
	$(PIP) install -e '.[dev,lexicon-build]'
	@missing="$$($(PY) -m games.lexicon.build_glosses --missing)"; if [ -n "$$missing" ]; then \
		echo "installing $$missing"; $$([ "$$(id -u)" = 0 ] || echo sudo) apt-get install -y $$missing; fi
	$(PY) -m games.lexicon.build
	$(PY) -m games.lexicon.build_lang
	$(PY) -m games.lexicon.build_glosses

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

## crash: the crash probe: the real bot process killed with SIGKILL again and again while people
## play, on the fake Discord and Slack (opt-in; CRASH_RACES per platform; see docs/RELIABILITY.md)
CRASH_RACES ?= 15
crash: $(VENV)/.dev-installed
	$(PY) bench/crash.py --races $(CRASH_RACES) --kills-per-race 2 --boards 3

## bench-processes: several bot processes on one PostgreSQL (Slack, HTTP mode): how long an event
## takes to reach the process running its game, and failover after kill -9 with LEASE_SECONDS 15
## and 5 (about 3 minutes; part of `make bench` too; uses MOJI_TEST_POSTGRES_URL, else starts a
## server with .ci/postgres.sh; more options in BENCH_PROCESSES_ARGS; see docs/PERFORMANCE.md)
BENCH_PROCESSES_ARGS ?=
bench-processes: $(VENV)/.dev-installed
	$(PY) bench/bench_processes.py $(BENCH_PROCESSES_ARGS)

## bench-slack-busy: one bot process (Slack, HTTP mode) on the rate-limited fake Slack, 20 channels
## racing in one workspace for a minute: 429s, how soon accepted answers and tables show (about 2
## minutes; see docs/PERFORMANCE.md, "A busy Slack workspace")
BENCH_SLACK_BUSY_ARGS ?=
bench-slack-busy: $(VENV)/.dev-installed
	$(PY) bench/bench_slack_busy.py $(BENCH_SLACK_BUSY_ARGS)

## bench-discord-busy: one bot process on the rate-limited fake Discord, 300 channels racing on one
## token for a minute (3 players each): 429s, how soon accepted answers and tables show (about 3
## minutes; more options in BENCH_DISCORD_BUSY_ARGS; see docs/PERFORMANCE.md, "A busy Discord token")
BENCH_DISCORD_BUSY_ARGS ?=
bench-discord-busy: $(VENV)/.dev-installed
	$(PY) bench/bench_discord_busy.py $(BENCH_DISCORD_BUSY_ARGS)

# pip with only PyPI: no local config, mirrors or wheel folders, so what `lock` and
# `image-check` resolve is what a fresh machine or `docker build` gets.
CLEAN_PIP := env -u PIP_FIND_LINKS -u PIP_EXTRA_INDEX_URL -u PIP_INDEX_URL -u PIP_CONSTRAINT \
	PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1
PIP_TOOLS_VERSION ?= 7.6.2
LOCK_PIP_VERSION ?= 26.0.1

## lock: requirements.lock, the exact runtime dependencies (with hashes) the Docker image installs;
## run it after changing pyproject.toml's dependencies, and commit the result
lock:
	rm -rf build/lock-venv && $(PYTHON) -m venv build/lock-venv
	$(CLEAN_PIP) build/lock-venv/bin/python -m pip install -q pip==$(LOCK_PIP_VERSION) pip-tools==$(PIP_TOOLS_VERSION)
	$(CLEAN_PIP) CUSTOM_COMPILE_COMMAND="make lock" build/lock-venv/bin/pip-compile --quiet \
		--generate-hashes --strip-extras --allow-unsafe --no-emit-index-url --no-emit-find-links \
		--output-file requirements.lock pyproject.toml

## lowest: the adapter, storage and bot tests with every dependency at its floor (.ci/lowest.sh)
lowest:
	PYTHON=$(PYTHON) bash .ci/lowest.sh

## image-check: the Dockerfile's install steps in a clean venv (requirements.lock with hashes, then
## moji with --no-deps), then `python -m bot --version` and a card picture from outside the checkout
image-check:
	rm -rf build/image-venv build/image-wheel && $(PYTHON) -m venv build/image-venv
	$(CLEAN_PIP) build/image-venv/bin/python -m pip install -q --require-hashes --no-deps -r requirements.lock
	$(CLEAN_PIP) build/image-venv/bin/python -m pip wheel -q --no-deps --wheel-dir build/image-wheel .
	$(CLEAN_PIP) build/image-venv/bin/python -m pip install -q --no-deps build/image-wheel/*.whl
	$(CLEAN_PIP) build/image-venv/bin/python -m pip check
	cd / && $(CURDIR)/build/image-venv/bin/python -m bot --version
	cd / && $(CURDIR)/build/image-venv/bin/python -c "$$IMAGE_SMOKE"

define IMAGE_SMOKE
import adapters.discord.client, adapters.slack.app, storage.postgres, storage.sqlite
from adapters.pictures import render_cards
from adapters.pictures.fonts import font, font_path
from games.common.protocol import CardFace
assert "site-packages" in str(font_path()), font_path()
assert font(20).path == str(font_path()), font(20).path
png = render_cards((CardFace("M", "red", 3),), title="image-check")
assert png.startswith(b"\x89PNG"), png[:8]
print("image-check: installed from requirements.lock; font", font_path())
endef
export IMAGE_SMOKE

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .pytest_cache

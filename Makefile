# Two commands: `make run` and `make test` (see README). Everything else is a step of those.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export FLASK_APP := app:create_app
# Some machines set PYTHONDONTWRITEBYTECODE: then every test worker and every server a test starts compiles
# the project and re-rewrites the test modules' asserts (about 4 s of each worker's collection).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: venv node run test test-fast bench demo clean translations extract mo

# Everything the floor needs to run, in production too: the Python packages, the pages' JavaScript
# (npm packages served from node_modules under /vendor/) and the compiled translations.
venv: $(VENV)/.installed node mo

$(VENV)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

# Languages: the catalogs (translations/<lang>/LC_MESSAGES/messages.po) are committed; the compiled .mo
# files are built here. Domain errors and Msg(...) are extracted by their class names (docs/i18n.md).
LANGS := fr de en
PO := $(foreach l,$(LANGS),translations/$(l)/LC_MESSAGES/messages.po)
MO := $(PO:.po=.mo)
POT ?= translations/messages.pot
BABEL_KEYWORDS := -k _l -k N_ -k Msg -k FloorError -k BadInput -k NotAuthenticated -k NotAllowed -k NotFound \
	-k Conflict -k InvalidState -k RateLimited -k GameInputError -k InvalidBet -k NotExpected -k InsufficientBalance

mo: $(MO)

translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po | $(VENV)/.installed
	$(VENV)/bin/pybabel compile -d translations -l $* -i $< -o $@

# Extract every marked string (Python, Jinja, JS) into $(POT).
extract:
	$(VENV)/bin/pybabel extract -F babel.cfg $(BABEL_KEYWORDS) --no-wrap --sort-by-file \
		--project=Floorman --msgid-bugs-address=floor@localhost -o $(POT) .

# Extract, then merge new strings into each catalog (translate them, then `make mo` or `make test`).
translations: venv extract
	$(VENV)/bin/pybabel update -i $(POT) -d translations --no-wrap --ignore-obsolete
	$(MAKE) mo

node: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

run: venv node mo
	$(PY) -m flask floor setup
	$(PY) -m floor.runtime.serve

# Three workers on the two-core machine the suite is built for: a browser or process test waits on its
# chain (page, server, database) part of the time, and a third worker fills that idle time. Measured there
# on the whole suite: 2 workers 462 s, 3 workers 387 s, 4 workers 430 s (contention).
WORKERS ?= 3

test: venv node mo
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest -n $(WORKERS) --dist loadgroup --durations=15 $(PYTEST_ARGS)

# The quick loop while working: SQLite alone, no browser, no real-time device runs, no slow proofs.
test-fast: venv node mo
	$(VENV)/bin/lint-imports --no-cache
	TEST_DATABASE_URL= $(PY) -m pytest -n $(WORKERS) --dist loadgroup -m "not slow and not e2e" --ignore=tests/e2e --ignore=tests/e2e_devices $(PYTEST_ARGS)

# A benchmark builds big floors (20,000 bets, 300 hands) and runs for minutes on a busy host: its hang
# guard is half an hour, not the suite's five minutes. `make bench PYTEST_ARGS=tests/benchmarks/test_bench_phones.py`
# runs that one alone: the whole folder only when the arguments name no path of their own (pytest would run both).
BENCH_PATHS = $(if $(filter tests/%,$(PYTEST_ARGS)),,tests/benchmarks)

bench: venv node mo
	$(PY) -m pytest $(BENCH_PATHS) -p no:cacheprovider -q -s -o addopts="" -o timeout=1800 $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) node_modules instance .pytest_cache

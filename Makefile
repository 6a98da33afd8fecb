# Two commands: `make run` and `make test` (see README). Everything else is a step of those.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export FLASK_APP := app:create_app

.PHONY: venv node run test test-fast bench demo clean

venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

node: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

run: venv node
	$(PY) -m flask floor setup
	$(PY) -m floor.runtime.serve

test: venv node
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest -n 2 --dist loadgroup --durations=15 $(PYTEST_ARGS)

# The quick loop while working: no browser, no real-time device runs, no slow proofs.
test-fast: venv node
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest -n 2 --dist loadgroup -m "not slow and not e2e" --ignore=tests/e2e --ignore=tests/e2e_devices $(PYTEST_ARGS)

bench: venv node
	$(PY) -m pytest tests/benchmarks -p no:cacheprovider -q -s -o addopts="" $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) node_modules instance .pytest_cache

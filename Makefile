# Two commands for a fresh machine: `make run` (set up, then serve the simulated table on
# http://127.0.0.1:8000) and `make test` (set up, then lint and run every test).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench lint browser clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m companion serve --camera sim

browser:
	bash scripts/ensure-browsers.sh

# The two mypy runs have their own caches: run side by side (one core each), both reported.
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy --config-file mypy-normal.ini & normal=$$!; \
	$(VENV)/bin/mypy; strict=$$?; wait $$normal; normal=$$?; \
	test $$strict -eq 0 -a $$normal -eq 0

# One test worker per core, each test file whole on one worker (its module fixtures built
# once), handed out in collection order: the browser tests (tests/e2e, the slowest files, of
# one or two tests each) first, where xdist's own order (most tests first) left them to the
# end and one worker ran them alone. The slowest tests are listed so the 15-minute budget is
# watched on every run.
test: $(STAMP) browser lint
	$(PY) -m pytest -q -n auto --dist loadfile --no-loadscope-reorder --durations=15

bench: $(STAMP)
	for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache

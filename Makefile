# Two commands: `make run` (set up everything, serve on http://127.0.0.1:8000) and
# `make test` (set up the same way, lint, run every test). Both work on a fresh clone
# with only Python 3.11+ and Node 20+: PostgreSQL comes from a pip package.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
NPM := npm --prefix frontend --no-audit --no-fund
FRONTEND_SOURCES := $(shell find frontend/src frontend/public -type f 2>/dev/null) \
	frontend/index.html frontend/vite.config.ts frontend/tsconfig.json

.PHONY: setup run test lint test-python test-frontend e2e bench openapi readme-figures clean

$(BIN)/benchboard: backend/pyproject.toml ingest/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ./ingest -e './backend[dev]'
	touch $@

# `npm install`, not `npm ci`: the lock records only this platform's optional packages
# (Biome's binaries), which `npm ci` refuses; `npm install` follows the lock as it is.
frontend/node_modules/.package-lock.json: frontend/package-lock.json frontend/package.json
	$(NPM) install

frontend/dist/index.html: frontend/node_modules/.package-lock.json $(FRONTEND_SOURCES)
	$(NPM) run build

setup: $(BIN)/benchboard frontend/dist/index.html

run: setup
	$(BIN)/benchboard serve

lint: setup
	$(BIN)/ruff check backend ingest migrations bench
	$(BIN)/ruff format --check backend ingest migrations bench
	$(BIN)/mypy backend/benchboard ingest/benchboard_ingest
	$(BIN)/mypy bench
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m benchboard.api_drift
	$(NPM) run check

# make test starts several embedded PostgreSQL servers: each sized for 1 GiB, not the machine.
test-python e2e: export BENCHBOARD_EMBEDDED_DATABASE_MEMORY_MB := 1024

test-python: setup
	$(BIN)/pytest backend/tests ingest/tests

test-frontend: setup
	$(NPM) run test:unit

e2e: setup
	$(NPM) run test:e2e

# Two at a time on a 2-core machine: the Python tests beside lint, the unit tests and then the
# browser tests. Each keeps its own embedded server and ports; output is printed per target.
test: setup
	$(MAKE) --no-print-directory -j2 --output-sync=target lint test-python test-frontend e2e

# Regenerate frontend/openapi.json, the TypeScript types and vocabularies after an API change.
openapi: setup
	$(BIN)/benchboard openapi > frontend/openapi.json
	$(BIN)/benchboard vocabulary > frontend/src/api/vocabulary.ts
	$(NPM) run gen:api

bench: setup
	$(BIN)/python bench/ingest_speed.py
	$(BIN)/python bench/read_speed.py
	$(BIN)/python bench/regression_quality.py
	$(BIN)/python bench/import_speed.py
	$(BIN)/python bench/detection_speed.py
	$(BIN)/python bench/scale_out.py
	$(NPM) run bench

# Draw the README's images (backend/docs/figures) again from the seed studies, in a database
# of their own so a maintainer's edits to a study do not show; a test fails while they differ.
readme-figures: $(BIN)/benchboard
	BENCHBOARD_DATABASE_NAME=benchboard_readme_figures $(BIN)/benchboard readme-figures

clean:
	rm -rf $(VENV) frontend/node_modules frontend/dist .data

# Arcana backend. `make run` starts everything; `make test` runs the whole suite.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
export PYTHONPATH := $(CURDIR)

.PHONY: help venv run test test-unit test-integration test-e2e lint format typecheck migrate \
        bench bench-eventstore bench-rules bench-match bench-relay rebuild-projection export-events clean

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-20s %s\n", $$1, $$2}'

$(VENV)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

venv: $(VENV)/.installed ## create the virtualenv with the pinned dependencies

run: venv ## start PostgreSQL, the Kafka broker, Celery, relays, consumers and every service
	$(PY) -m libs.devstack.run

test: venv ## the whole suite (unit, integration, e2e) against real PostgreSQL and Kafka
	$(PY) -m pytest

test-unit: venv ## pure domain and rules tests only
	$(PY) -m pytest tests/unit

test-integration: venv ## integration tests (real PostgreSQL and broker)
	$(PY) -m pytest tests/integration

test-e2e: venv ## end-to-end tests (real processes over HTTP)
	$(PY) -m pytest tests/e2e

lint: venv ## ruff lint + format check, mypy on libs/
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy libs

format: venv ## apply ruff's fixes and formatting
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

typecheck: venv ## mypy on libs/
	$(VENV)/bin/mypy libs

migrate: venv ## apply every service's migrations to DATABASE_URL
	$(PY) -m libs.db.migrate_all

bench: bench-eventstore bench-rules bench-match bench-relay ## every benchmark

bench-eventstore: venv ## event store appends vs raw INSERT, replay throughput
	$(PY) -m bench.bench_eventstore

bench-rules: venv ## rules engine games/s and steps/s on one core
	$(PY) bench/bench_rules.py

bench-match: venv ## concurrent bot-vs-bot matches over HTTP
	$(PY) -m bench.bench_match

bench-relay: venv ## the outbox relay republishing 100,000 events to an empty broker, events/s
	$(PY) -m bench.bench_relay

rebuild-projection: venv ## drop and rebuild a projection: make rebuild-projection SCHEMA=x PROJECTION=mod:obj
	$(PY) -m libs.bus.rebuild --schema $(SCHEMA) --projection $(PROJECTION)

export-events: venv ## the event log of a service as JSON Lines: make export-events SCHEMA=match [STREAM=match-…]
	$(PY) -m libs.bus.export --schema $(SCHEMA) $(if $(STREAM),--stream $(STREAM))

clean: ## remove the virtualenv and the embedded stack's data
	rm -rf $(VENV) .arcana .pytest_cache .mypy_cache .ruff_cache .hypothesis

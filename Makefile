# Arcana backend. `make run` starts everything; `make test` runs the whole suite.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# `make test` workers (pytest-xdist): the tests mostly wait on PostgreSQL, Kafka and processes, so more
# workers than cores; the e2e tests run one after the other on one of them (tests/conftest.py).
TEST_WORKERS ?= 5
export PYTHONPATH := $(CURDIR)
UV     := $(VENV)/bin/uv
# Compiled modules are cached in __pycache__ folders (git ignores them), and so are pytest's rewritten
# test modules: where the machine sets PYTHONDONTWRITEBYTECODE, every test worker rewrote the 270 test
# modules at its start (about 7 s of CPU each) and every process a test starts compiled the project's
# modules again (docs/testing.md, "Tenth pass").
unexport PYTHONDONTWRITEBYTECODE

.PHONY: help venv run test test-cpu test-unit test-integration test-e2e test-e2e-repeat lint format typecheck docs-events docs-schemas kafka-acls migrate \
        bench bench-eventstore bench-rules bench-match bench-matchmaking bench-progression bench-economy bench-relay \
        bench-capacity bench-recovery bench-snapshots bench-line bench-arena bench-command-path bench-codec docs-line rebuild-projection export-events dead-letters \
        simulate clean browser-deps screenshots

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-20s %s\n", $$1, $$2}'

# The packages are installed by uv (pinned in requirements-dev.txt, itself installed by pip): pip took
# 4-5 minutes of a fresh clone's .ci/run, most of it one index look-up after another; uv asks and
# downloads in parallel (docs/testing.md, "Tenth pass"). The venv is made without pip (ensurepip took
# 10-30 s), the interpreter's own pip installs uv into it (ensurepip where it has none), and uv puts
# pip back with the rest. Then everything is compiled once, on every core (compileall -j0: 6 s on a
# quiet machine): otherwise the suite's five workers and the first processes of each stack compiled
# the same site packages side by side (docs/testing.md, "Twelfth pass").
UV_PIN := $(shell grep -oE '^uv==[^ ]+' requirements-dev.txt)
$(VENV)/.installed: requirements.txt requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(PY) install --quiet --disable-pip-version-check $(UV_PIN) \
	  || { $(PY) -m ensurepip --default-pip && $(PY) -m pip install --quiet --disable-pip-version-check $(UV_PIN); }
	$(UV) pip install --quiet --python $(PY) -r requirements-dev.txt
	$(UV) pip install --quiet --python $(PY) --no-deps --no-build-isolation -e .
	$(PY) -m compileall -q -j0 $(VENV)/lib libs services harness bench tests >/dev/null
	touch $@

venv: $(VENV)/.installed ## create the virtualenv with the pinned dependencies

run: venv ## start PostgreSQL, the Kafka broker, Celery, relays, consumers and every service
	$(PY) -m libs.devstack.run

test: venv ## the whole suite (unit, integration, e2e) against real PostgreSQL and Kafka, on TEST_WORKERS workers
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup

test-cpu: venv ## `make test`, then the CPU each kind of process used meanwhile (harness/suite_cpu.py)
	$(PY) -m harness.suite_cpu -- $(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup

test-unit: venv ## pure domain and rules tests only
	$(PY) -m pytest tests/unit

test-integration: venv ## integration tests (real PostgreSQL and broker), on TEST_WORKERS workers
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup tests/integration

test-e2e: venv ## end-to-end tests (real processes over HTTP)
	$(PY) -m pytest tests/e2e

# The flake count of docs/testing.md: the e2e and browser tests (tests/e2e), scheduled as `make test`
# schedules them, N times in a row with CI=true (a skip fails); it stops at the first failure.
test-e2e-repeat: venv ## the e2e and browser tests N times in a row (default 10), stopping at the first failure
	@n=$(or $(N),10); for i in $$(seq 1 $$n); do \
	  echo "== pass $$i of $$n ($$(date -u +%H:%M:%S) UTC, load $$(cut -d' ' -f1-3 /proc/loadavg))"; \
	  CI=true $(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup -q tests/e2e \
	    || { echo "pass $$i of $$n failed: $$((i - 1)) consecutive passes before it"; exit 1; }; \
	done; echo "$$n consecutive passes of tests/e2e"

browser-deps: ## Debian's chromium and chromium-driver for the browser tests (as root; CI runs it from .ci/run)
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver; }

screenshots: venv ## regenerate docs/screenshots/*.png: the browser tests, saving each main screen
	ARCANA_SCREENSHOTS=$(CURDIR)/docs/screenshots $(PY) -m pytest tests/e2e/test_web_client.py tests/e2e/test_web_games.py -q

lint: venv ## ruff lint + format check, import contracts, mypy on libs/ and services/
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy libs services

format: venv ## apply ruff's fixes and formatting
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

typecheck: venv ## mypy on libs/ and services/
	$(VENV)/bin/mypy libs services

docs-events: venv ## regenerate docs/events.md and the generated tables of docs/architecture.md (topics, layers)
	$(PY) -m libs.kit.docs

docs-schemas: venv ## regenerate docs/schemas: a JSON Schema per (topic, event type, version)
	$(PY) -m libs.kit.schemas docs/schemas

kafka-acls: venv ## regenerate the Kafka users, ACLs and topics (deploy/k8s/components/kafka-acls) from every service's declarations
	$(PY) -m libs.kit.kafka_resources deploy/k8s/components/kafka-acls

ARCANA := $(VENV)/bin/arcana

migrate: venv ## apply every service's migrations to DATABASE_URL (arcana migrate)
	@$(ARCANA) migrate

bench: bench-eventstore bench-rules bench-match bench-matchmaking bench-progression bench-economy bench-relay bench-capacity bench-recovery bench-snapshots bench-line bench-arena bench-command-path ## every benchmark

bench-eventstore: venv ## event store appends vs raw INSERT, replay throughput
	$(PY) -m bench.bench_eventstore

bench-rules: venv ## rules engine games/s and steps/s on one core
	$(PY) bench/bench_rules.py

bench-match: venv ## concurrent bot-vs-bot matches over HTTP
	$(PY) -m bench.bench_match

bench-matchmaking: venv ## one ranked pairing pass over 1k / 10k tickets; latency p50/p99 and rating gap under steady arrivals
	$(PY) -m bench.bench_matchmaking

bench-progression: venv ## MatchEnded -> quests and pass through relay, broker and consumer: events/s, lag
	$(PY) -m bench.bench_progression

bench-economy: venv ## pack openings and wallet reads over HTTP (1 and 16 clients), MatchEnded -> coins
	$(PY) -m bench.bench_economy

bench-relay: venv ## the outbox relay republishing 100,000 events to an empty broker, events/s
	$(PY) -m bench.bench_relay

bench-capacity: venv ## M = 100..1000 live matches of two human-paced clients (think 2-6 s, long-polls): latency, delivery, CPU per player
	$(PY) -m bench.bench_capacity

bench-recovery: venv ## M = 1000 live matches through a SIGKILL of the whole stack under make run: seconds until every match answers and every overdue deadline is enforced; nothing lost
	$(PY) -m bench.bench_recovery

bench-snapshots: venv ## cold load of a match (fresh cache) with and without its snapshot: ms per match, alone and in the sweep's batch
	$(PY) -m bench.bench_snapshots

bench-command-path: venv ## match's CPU per request on command, view and legal commands (in process, real PostgreSQL); BENCH_CP_PROFILE=file: py-spy
	$(PY) -m bench.bench_command_path $(TREES)

bench-codec: venv ## the one codec: strict event decodes and snapshot round trips per second, one core
	$(PY) -m bench.bench_codec

bench-line: venv ## the line: whole fights/s and the resolution alone, one core (target 20,000 fights/s)
	$(PY) -m bench.bench_line

bench-arena: venv ## Arcane Arena: how bot rounds end (elimination vs deck out, turns) and random games/s, one core
	$(PY) -m bench.bench_arena

docs-line: venv ## regenerate the catalog table of docs/line.md from libs/games/line/data/cards.json
	$(PY) -m libs.games.line.doc docs/line.md

rebuild-projection: venv ## drop and rebuild a service's read models: make rebuild-projection SERVICE=match (arcana rebuild)
	@$(ARCANA) rebuild $(SERVICE) $(if $(PROJECTION),--projection $(PROJECTION))

export-events: venv ## events as JSON Lines on stdout: make export-events [SERVICE=match] [STREAM=match-…] (arcana export)
	@$(ARCANA) export $(if $(SERVICE),--service $(SERVICE)) $(if $(STREAM),--stream $(STREAM))

dead-letters: venv ## a service's dead letters: make dead-letters SERVICE=match [RETRY=id|all] [ALL=1] (arcana dead-letters)
	@$(ARCANA) dead-letters $(if $(RETRY),retry $(if $(filter all,$(RETRY)),--all,$(RETRY)),list $(if $(ALL),--all)) --service $(SERVICE)

simulate: venv ## bot-against-bot games on the rules engine with win rates: make simulate [GAMES=100] (arcana simulate)
	@$(ARCANA) simulate --games $(or $(GAMES),100)

clean: ## remove the virtualenv and the embedded stack's data
	rm -rf $(VENV) .arcana .pytest_cache .mypy_cache .ruff_cache .hypothesis

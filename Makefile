# Clabber League: the two commands are `make run` and `make test`.
# Both need only Python 3.11+ and make; everything else goes into .venv.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000
PYTEST_ARGS ?=
# make test FAST=1 skips the slow schemathesis fuzz test (marker `fuzz`) locally; CI never does.
ifneq ($(CI),true)
ifneq ($(FAST),)
PYTEST_ARGS += -m "not fuzz"
endif
endif

.PHONY: run test lint bench vendor docs migrate demo clean help

help:
	@echo "make run    - install into $(VENV), migrate, load the demo league, serve http://$(HOST):$(PORT)"
	@echo "make test   - install the test tools and run the whole suite (ruff, import-linter, pytest)"
	@echo "              make test FAST=1 skips the slow API fuzz test (CI never does)"
	@echo "make bench  - run the benchmarks in bench/"
	@echo "make bench-load - 50 scorers for 60 s against gunicorn and PostgreSQL (bench/load.py)"
	@echo "make docs   - regenerate docs/rulesets.md from the rule-set data"
	@echo "make vendor - refresh static/vendor from the npm registry (needs node)"
	@echo "make lint-api - lint the OpenAPI schema with Redocly's recommended rules (needs node)"

$(VENV)/.installed-run: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed-run
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

migrate: $(VENV)/.installed-run
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py seed_demo --base-url http://$(HOST):$(PORT)

run: demo
	@echo "Serving Clabber League on http://$(HOST):$(PORT)/  (Ctrl-C stops it)"
	$(PY) manage.py runserver $(HOST):$(PORT)

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache  # the layers of docs/ARCHITECTURE.md ([tool.importlinter])

test: $(VENV)/.installed-test lint
	@if [ -x "$${CHROMIUM_PATH:-/usr/bin/chromium}" ] || command -v chromium >/dev/null 2>&1; then \
		echo "Browser tests: using $${CHROMIUM_PATH:-$$(command -v chromium)}"; \
	else \
		echo "Browser tests: NO Chromium found (install Debian's 'chromium'); they will be skipped here and fail under CI=true"; \
	fi
	@echo "Database: $${DATABASE_URL:-SQLite (DATABASE_URL unset)}; Celery: $${REDIS_URL:-eager, in-process (REDIS_URL unset)}"
	@$(PY) -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: that is a failure here"; exit 1; fi; \
	exit $$rc

bench: $(VENV)/.installed-test
	$(PY) bench/rules.py
	$(PY) bench/record.py
	$(PY) bench/standings.py
	$(PY) bench/pages.py
	$(PY) bench/schedule.py
	$(PY) bench/backup.py

# The load test needs locust (the `bench` extra); LOAD_ARGS passes options, e.g. --wait-idle 300.
.PHONY: bench-load
$(VENV)/.installed-bench: pyproject.toml $(VENV)/.installed-test
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $@

bench-load: $(VENV)/.installed-bench
	$(PY) bench/load.py $(LOAD_ARGS)

docs: $(VENV)/.installed-run
	$(PY) -m clabber_league.rules catalog --markdown > docs/rulesets.md

vendor:
	npm install --no-audit --no-fund --ignore-scripts
	mkdir -p static/vendor/htmx static/vendor/chartjs
	cp node_modules/htmx.org/dist/htmx.min.js node_modules/htmx.org/LICENSE static/vendor/htmx/
	cp node_modules/chart.js/dist/chart.umd.min.js node_modules/chart.js/dist/chart.umd.min.js.map node_modules/chart.js/LICENSE.md static/vendor/chartjs/
	mkdir -p tests/browser/vendor/axe-core  # axe-core checks the pages in the browser tests only
	cp node_modules/axe-core/axe.min.js node_modules/axe-core/LICENSE tests/browser/vendor/axe-core/
	# Pyodide runs the rules engine on the phone (offline deal entry): only the core runtime.
	rm -rf static/vendor/pyodide && mkdir -p static/vendor/pyodide
	cd node_modules/pyodide && cp pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip \
		pyodide-lock.json package.json README.md ../../static/vendor/pyodide/

# Redocly CLI from the npm registry, kept out of package.json (it is not vendored).
REDOCLY_VERSION ?= 2.77.0
REDOCLY := .cache/redocly/node_modules/.bin/redocly
.PHONY: lint-api
lint-api: $(VENV)/.installed-run
	mkdir -p .cache/redocly
	test -x $(REDOCLY) || npm install --prefix .cache/redocly --no-audit --no-fund --ignore-scripts --no-save @redocly/cli@$(REDOCLY_VERSION)
	$(PY) manage.py spectacular --format openapi-json --file .cache/openapi.json
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true $(REDOCLY) lint .cache/openapi.json --config redocly.yaml

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis .cache

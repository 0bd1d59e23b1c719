# Clabber League: the two commands are `make run` and `make test`.
# Both need only Python 3.11+ and make; everything else goes into .venv.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000
# make run-https: HTTPS on the club's Wi-Fi (a service worker needs HTTPS off localhost).
HTTPS_PORT ?= 8443
CERT_DIR   ?= .cache/cert
# The laptop's address on the local network (for HOST=0.0.0.0 and the certificate).
# (As clabber_league/config/settings/lan.py finds it: a UDP socket that sends nothing.)
LAN_IP ?= $(shell $(PYTHON) -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.connect(("10.254.254.254", 1)); print(s.getsockname()[0])' 2>/dev/null || echo 127.0.0.1)
SHOWN_HOST = $(if $(filter 0.0.0.0,$(HOST)),$(LAN_IP),$(HOST))
PYTEST_ARGS ?=
# make test FAST=1 skips the slow schemathesis fuzz test (marker `fuzz`) locally; CI never does.
ifneq ($(CI),true)
ifneq ($(FAST),)
PYTEST_ARGS += -m "not fuzz"
endif
endif
# pytest-xdist: the suite on PYTEST_WORKERS processes, each with a test database and a Redis
# database of its own (clabber_league/config/settings/test.py); PYTEST_WORKERS=0: one process.
PYTEST_WORKERS ?= 2
ifneq ($(PYTEST_WORKERS),0)
PYTEST_XDIST = -n $(PYTEST_WORKERS) --dist loadgroup
endif

.PHONY: run test lint bench vendor docs migrate demo clean help cert run-https

help:
	@echo "make run    - install into $(VENV), migrate, load the demo league, serve http://$(HOST):$(PORT) (uvicorn)"
	@echo "              make run DEMO=0 starts empty, with \"Create your club\" on the home page"
	@echo "              make run HOST=0.0.0.0 serves the club's Wi-Fi too (phones: http://$(LAN_IP):$(PORT)/)"
	@echo "make cert   - a certificate for this laptop's LAN address in $(CERT_DIR)/ (openssl)"
	@echo "make run-https - the same over HTTPS on port $(HTTPS_PORT), with that certificate"
	@echo "make test   - install the test tools and run the whole suite (ruff, import-linter, node --test, pytest)"
	@echo "              on PYTEST_WORKERS=2 processes (pytest-xdist; 0: one); prints its wall time"
	@echo "              make test FAST=1 skips the slow API fuzz test (CI never does)"
	@echo "make bench  - run the benchmarks in bench/"
	@echo "make bench-load - 50 scorers for 60 s against gunicorn and PostgreSQL (bench/load.py)"
	@echo "make bench-live - 500 followers of a live club night while 10 tables save deals (bench/live.py)"
	@echo "make lock   - write requirements/lock*.txt again from pyproject.toml (UPGRADE=1: newest allowed)"
	@echo "make docs   - regenerate docs/rulesets.md from the rule-set data"
	@echo "make vendor - refresh static/vendor from the npm registry (needs node)"
	@echo "make lint-api - lint the OpenAPI schema with Redocly's recommended rules (needs node)"
	@echo "make api-clients - generate the Python and TypeScript clients, type-check them, run their workflow tests (needs node)"

# The dependencies come from the lock files (requirements/lock*.txt: every version pinned,
# every file's hash): an install tomorrow is today's. `make lock` writes them again after
# pyproject.toml changed (docs/production.md, "Upgrades and rollbacks").
LOCK_STALE = echo "requirements/lock*.txt lack a dependency of pyproject.toml: run make lock" >&2; exit 1
$(VENV)/.installed-run: pyproject.toml requirements/lock.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --require-hashes -r requirements/lock.txt
	$(PY) -m pip install --quiet --no-deps -e .
	$(PY) -m pip check >/dev/null || { $(LOCK_STALE); }
	touch $@

$(VENV)/.installed-test: pyproject.toml requirements/lock-test.txt $(VENV)/.installed-run
	$(PY) -m pip install --quiet --require-hashes -r requirements/lock-test.txt
	$(PY) -m pip install --quiet --no-deps -e '.[test]'
	$(PY) -m pip check >/dev/null || { $(LOCK_STALE); }
	touch $@

# requirements/lock.txt (what the image and `make run` install) and lock-test.txt (with the
# test tools: CI) from pyproject.toml, with uv. Versions already locked stay unless
# UPGRADE=1 (then each takes the newest its range allows).
UV_COMPILE = $(VENV)/bin/uv pip compile pyproject.toml --universal --generate-hashes \
	--python-version 3.11 --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade,)
.PHONY: lock
lock:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	test -x $(VENV)/bin/uv || $(PY) -m pip install --quiet 'uv>=0.5,<1'
	$(UV_COMPILE) -o requirements/lock.txt
	$(UV_COMPILE) --extra test -o requirements/lock-test.txt

migrate: $(VENV)/.installed-run
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py seed_demo --base-url http://$(SHOWN_HOST):$(PORT)

# make run DEMO=0: no demo league; the home page offers "Create your club" instead.
DEMO ?= 1
FIRST_STEP = $(if $(filter 0,$(DEMO)),migrate,demo)

# The translation catalogs (locale/*/LC_MESSAGES/*.po, docs/i18n.md) compiled to the .mo
# files Django reads; msgfmt (GNU gettext) refuses a translation whose placeholders differ.
.PHONY: messages
messages:
	@if command -v msgfmt >/dev/null 2>&1; then \
		$(PY) manage.py compilemessages --ignore=.venv --ignore=node_modules --verbosity 0; \
	else \
		echo "messages: msgfmt is missing (apt-get install -y gettext): pages stay in English"; \
	fi

# uvicorn, the ASGI server, in place of runserver: the pages as before, and the live pages'
# Server-Sent Events held open without a thread each (docs/live.md). --reload restarts it
# when a file of the project changes; the static files come through WhiteNoise (DEBUG).
# With REDIS_URL set the live pages stream each deal; without it they poll.
run: messages $(FIRST_STEP)
	@echo "Serving Clabber League on http://$(SHOWN_HOST):$(PORT)/  (Ctrl-C stops it)"
	DJANGO_SETTINGS_MODULE=clabber_league.config.settings.local CLABBER_LAN_HOST=$(HOST) PORT=$(PORT) \
		$(VENV)/bin/uvicorn clabber_league.config.asgi:application --host $(HOST) --port $(PORT) \
		--reload --reload-dir clabber_league --reload-dir templates --reload-dir static

# A small certificate authority of this laptop's own and a server certificate it signs for
# localhost and $(LAN_IP): install $(CERT_DIR)/clabber-ca.crt on the phones (README, "At the
# club"). Run it again when the laptop's address changes.
cert:
	mkdir -p $(CERT_DIR)
	test -f $(CERT_DIR)/ca.pem || openssl req -x509 -newkey rsa:2048 -sha256 -nodes -days 825 \
		-keyout $(CERT_DIR)/ca-key.pem -out $(CERT_DIR)/ca.pem \
		-subj "/CN=Clabber League club laptop ($(shell hostname))" \
		-addext "basicConstraints=critical,CA:TRUE,pathlen:0" \
		-addext "keyUsage=critical,keyCertSign,cRLSign"
	openssl req -newkey rsa:2048 -sha256 -nodes -keyout $(CERT_DIR)/key.pem \
		-out $(CERT_DIR)/server.csr -subj "/CN=$(LAN_IP)"
	printf 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:%s\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n' "$(LAN_IP)" > $(CERT_DIR)/server.ext
	openssl x509 -req -in $(CERT_DIR)/server.csr -CA $(CERT_DIR)/ca.pem -CAkey $(CERT_DIR)/ca-key.pem \
		-CAcreateserial -days 397 -sha256 -extfile $(CERT_DIR)/server.ext -out $(CERT_DIR)/cert.pem
	openssl x509 -in $(CERT_DIR)/ca.pem -outform der -out $(CERT_DIR)/clabber-ca.crt
	@echo "Certificate for localhost and $(LAN_IP) in $(CERT_DIR)/; phones install $(CERT_DIR)/clabber-ca.crt"

# uvicorn speaks TLS itself; the development settings serve the static files through
# WhiteNoise, so this is `make run` over HTTPS, live streams included (ASGI).
run-https: messages demo
	test -f $(CERT_DIR)/cert.pem || $(MAKE) cert
	@echo "Serving Clabber League on https://$(SHOWN_HOST):$(HTTPS_PORT)/  (Ctrl-C stops it)"
	DJANGO_SETTINGS_MODULE=clabber_league.config.settings.local CLABBER_LAN_HOST=$(HOST) \
		HTTPS_PORT=$(HTTPS_PORT) $(VENV)/bin/uvicorn clabber_league.config.asgi:application \
		--host $(HOST) --port $(HTTPS_PORT) \
		--ssl-certfile $(CERT_DIR)/cert.pem --ssl-keyfile $(CERT_DIR)/key.pem

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache  # the layers of docs/ARCHITECTURE.md ([tool.importlinter])

# The JavaScript's own logic (outbox, offline entry) under node's built-in test runner.
JS_TESTS = tests/js
.PHONY: test-js
test-js:
	@if command -v node >/dev/null 2>&1; then \
		node --test --test-reporter=spec $(JS_TESTS)/; \
	elif [ "$(CI)" = "true" ]; then \
		echo "JavaScript tests: node is missing, and CI=true needs it (apt-get install -y nodejs)"; exit 1; \
	else \
		echo "JavaScript tests: SKIPPED, node is not installed (apt-get install -y nodejs)"; \
	fi

# Prints its wall time at the end, passed or failed.
test: $(VENV)/.installed-test
	@start=$$(date +%s); rc=0; \
	$(MAKE) --no-print-directory test-steps || rc=$$?; \
	echo "make test: wall time $$(( $$(date +%s) - start )) s (exit $$rc; load average $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"; \
	exit $$rc

.PHONY: test-steps
test-steps: lint test-js messages
	@if [ -x "$${CHROMIUM_PATH:-/usr/bin/chromium}" ] || command -v chromium >/dev/null 2>&1; then \
		echo "Browser tests: using $${CHROMIUM_PATH:-$$(command -v chromium)}"; \
	else \
		echo "Browser tests: NO Chromium found (install Debian's 'chromium'); they will be skipped here and fail under CI=true"; \
	fi
	@echo "Database: $${DATABASE_URL:-SQLite (DATABASE_URL unset)}; Celery: $${REDIS_URL:-eager, in-process (REDIS_URL unset)}"
	@$(PY) -m pytest $(PYTEST_XDIST) $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: that is a failure here"; exit 1; fi; \
	exit $$rc

bench: $(VENV)/.installed-test
	$(PY) bench/rules.py
	$(PY) bench/record.py
	$(PY) bench/standings.py
	$(PY) bench/pages.py
	$(PY) bench/schedule.py
	$(PY) bench/backup.py
	$(PY) bench/bracket.py
	$(PY) bench/draw.py

# The load test needs locust (the `bench` extra); LOAD_ARGS passes options, e.g. --wait-idle 300.
.PHONY: bench-load
$(VENV)/.installed-bench: pyproject.toml $(VENV)/.installed-test
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $@

bench-load: $(VENV)/.installed-bench
	$(PY) bench/load.py $(LOAD_ARGS)

# 500 followers of a club night's live page (SSE, uvicorn) while 10 tables save deals
# (bench/live.py; PostgreSQL and Redis on this machine, BENCH_REDIS_URL); LIVE_ARGS passes options.
.PHONY: bench-live
bench-live: $(VENV)/.installed-test
	$(PY) bench/live.py $(LIVE_ARGS)

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

# The API as outside developers use it: a Python client (openapi-python-client) and a
# TypeScript one (openapi-typescript + openapi-fetch, typescript: tests/api/clients/package.json
# and its lock) generated from the live schema into $(CLIENTS) (never committed), type-checked
# (mypy; tsc --noEmit with its default settings, then the workflow script with --strict), and
# driven through a season, a club night and a cup (tests/api/clients/). The npm install is
# kept while the lock file is unchanged. Without node it is skipped here, and fails under CI=true.
CLIENTS ?= .cache/api-clients
TSC := $(CLIENTS)/ts/node_modules/.bin/tsc
.PHONY: api-clients
api-clients: $(VENV)/.installed-test
	@if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then \
		if [ "$(CI)" = true ]; then echo "make api-clients: node and npm are needed" >&2; exit 1; fi; \
		echo "make api-clients: SKIPPED, node is not installed (CI runs it)"; exit 0; \
	fi; \
	set -e; mkdir -p $(CLIENTS)/ts; \
	$(PY) manage.py spectacular --format openapi-json --file $(CLIENTS)/openapi.json; \
	rm -rf $(CLIENTS)/python && mkdir -p $(CLIENTS)/python; \
	printf 'post_hooks: []\npackage_name_override: clabber_client\n' > $(CLIENTS)/python-config.yaml; \
	$(VENV)/bin/openapi-python-client generate --path $(CLIENTS)/openapi.json \
		--output-path $(CLIENTS)/python/clabber_client --meta none --config $(CLIENTS)/python-config.yaml; \
	cd $(CLIENTS)/python && $(abspath $(VENV))/bin/mypy --cache-dir ../mypy-cache clabber_client && cd $(CURDIR); \
	if ! cmp -s tests/api/clients/package-lock.json $(CLIENTS)/ts/package-lock.json || [ ! -x $(TSC) ]; then \
		cp tests/api/clients/package.json tests/api/clients/package-lock.json $(CLIENTS)/ts/; \
		npm ci --prefix $(CLIENTS)/ts --no-audit --no-fund --ignore-scripts; \
	fi; \
	cp tests/api/clients/package.json tests/api/clients/workflow.ts $(CLIENTS)/ts/; \
	cd $(CLIENTS)/ts && node_modules/.bin/openapi-typescript ../openapi.json -o schema.d.ts; \
	node_modules/.bin/tsc --noEmit schema.d.ts; \
	node_modules/.bin/tsc --noEmit --strict schema.d.ts; \
	node_modules/.bin/tsc --strict --target es2022 --module nodenext --outDir out workflow.ts; \
	cd $(CURDIR); \
	API_CLIENTS_DIR=$(CLIENTS) $(PY) -m pytest tests/api/clients -p no:cacheprovider; \
	echo "make api-clients: both clients generated, type-checked and run"

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis .cache

# Gather every marked text into the catalogs (docs/i18n.md); translators fill the .po files.
I18N_LANGUAGES = -l nl -l de -l fr -l cs -l pl -l hr -l ja
I18N_IGNORE = --ignore='tests/*' --ignore='bench/*' --ignore='staticfiles/*' \
	--ignore='node_modules/*' --ignore='tools/*' --ignore='docs/*' --ignore='.venv/*'
# The rules engine's messages as JavaScript, for the djangojs catalog of the offline deal page
# (clabber_league/site/engine_messages.py); tests/i18n/test_engine_messages.py fails when stale.
.PHONY: engine-messages
engine-messages:
	$(PY) manage.py engine_messages

.PHONY: makemessages
makemessages: engine-messages
	$(PY) manage.py makemessages $(I18N_LANGUAGES) $(I18N_IGNORE) --no-obsolete
	$(PY) manage.py makemessages -d djangojs $(I18N_LANGUAGES) $(I18N_IGNORE) \
		--ignore='static/vendor/*' --no-obsolete

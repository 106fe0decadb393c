# Two commands for a fresh machine: `make run` and `make test`. Only Python 3.11 and make needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.installed-runtime
DEV := $(VENV)/.installed-dev
FLASK := $(BIN)/flask --app companion.web
CHROMIUM := /usr/bin/chromium
# `make run PORT=5001` when 5000 is taken; `make run HOST=0.0.0.0` lets the phones at the table
# (same Wi-Fi) open http://<this machine's address>:5000. PORT set in the environment counts too.
HOST ?= 127.0.0.1
PORT ?= 5000
AXE := node_modules/axe-core/axe.min.js
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test db chromium postgres benchmark lint clean translations

# `companion serve` migrates the database first (the same as `make db`), then runs Hypercorn.
run: $(RUNTIME)
	$(BIN)/companion serve --host $(HOST) --port $(PORT)

# The suite on every core (pytest-xdist), each test to whichever worker is free
# (docs/contributing.md, "The test suite").
test: $(DEV) chromium postgres $(AXE)
	$(BIN)/python -m pytest -q -n auto

db: $(RUNTIME)
	$(FLASK) db upgrade

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# An editable install is one line of notice per folder mapped into the package (setup.py): quiet.
QUIET_BUILD := PYTHONWARNINGS="ignore:Editable installation"

$(RUNTIME): pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install -q --upgrade pip
	$(QUIET_BUILD) $(BIN)/python -m pip install -q -e .
	touch $@

$(DEV): pyproject.toml $(RUNTIME)
	$(QUIET_BUILD) $(BIN)/python -m pip install -q -e '.[dev]'
	touch $@

# Browser tests drive Debian's chromium (never a downloaded browser).
chromium:
	@test -x $(CHROMIUM) || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core; }

# tests/postgres starts a throwaway cluster of Debian's PostgreSQL server (initdb + pg_ctl).
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || \
	  { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends postgresql; }

benchmark: $(DEV)
	$(BIN)/python -m benchmarks

lint: $(DEV)
	$(BIN)/ruff check companion tests
	$(BIN)/mypy companion/core

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .hypothesis node_modules

# axe-core for the browser tests' accessibility check, pinned in package-lock.json, from the npm
# registry (never a CDN); Debian's node and npm are installed first when missing.
$(AXE): package.json package-lock.json
	@command -v npm >/dev/null || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends nodejs npm; }
	npm ci --no-audit --no-fund
	touch $@

# The pages' catalogues (companion/translations): extract the messages, merge them into every
# language's messages.po, compile the .mo files (committed, so the wheel ships them).
translations: $(DEV)
	$(BIN)/pybabel extract --no-wrap -F babel.cfg -k _l -o companion/translations/messages.pot --no-location --sort-output .
	$(BIN)/pybabel update --no-wrap -i companion/translations/messages.pot -d companion/translations --no-fuzzy-matching
	$(BIN)/pybabel compile -d companion/translations --statistics

# rulespec: `make build` compiles every rulespec into generated/; `make test` runs the whole suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: build test check bench clean venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

build: $(STAMP)
	$(BIN)/rulespec build

check: $(STAMP)
	$(BIN)/rulespec build --check

# every core (pytest-xdist); the tests sharing the build of the committed tree run on one worker; the 15
# slowest tests are listed at the end (where the suite's time goes, on the machine that ran it)
test: $(STAMP)
	@sh tests/people/install-browser.sh
	$(BIN)/python -m pytest -n auto --dist loadgroup --durations=15
	$(BIN)/rulespec test

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache

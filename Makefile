# make demo: set up .venv and run tilefit on the bundled real logs and kernels.
# make test: set up .venv with every backend the compile tier needs and run the tests.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip
# pip quietly, and let pip's cache make a second setup fast.
PIPQ := $(PIP) install --quiet --disable-pip-version-check

.PHONY: demo test test-unit lint setup-core setup-test clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(VENV)/.core: pyproject.toml | $(BIN)/python
	$(PIPQ) -e ".[dev]"
	touch $@

$(VENV)/.test: pyproject.toml $(VENV)/.core
	$(PIPQ) -e ".[dev,triton,tpu,progress]"
	touch $@

$(VENV)/.demo: pyproject.toml $(VENV)/.core
	$(PIPQ) -e ".[triton,progress]"
	touch $@

setup-core: $(VENV)/.core
setup-test: $(VENV)/.test

demo: $(VENV)/.demo
	$(BIN)/python scripts/demo.py

test: $(VENV)/.test
	$(BIN)/python -m pytest -q -p no:cacheprovider

test-unit: $(VENV)/.core
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/unit tests/kb

lint: $(VENV)/.core
	$(BIN)/ruff check src tests
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist src/*.egg-info

# make demo: set up .venv and run tilefit on the bundled real logs and kernels.
# make test: set up .venv with every backend the compile tier needs and run the tests.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip
# pip quietly, and let pip's cache make a second setup fast.
# Where a folder of prebuilt wheels exists (this workplace's machines keep CPU torch there), use it too.
WHEELS ?= /opt/wheels
PIPQ := $(PIP) install --quiet --disable-pip-version-check $(if $(wildcard $(WHEELS)),--find-links $(WHEELS))
# The compile tier runs Helion on the CPU: a CPU build of torch is enough (several GB smaller than CUDA's).
# Override on machines where another build is at hand, e.g. make test TORCH_SPEC="torch==2.11.0".
TORCH_SPEC ?= torch==2.13.0

.PHONY: demo test test-unit lint setup-core setup-test clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(VENV)/.core: pyproject.toml | $(BIN)/python
	$(PIPQ) -e ".[dev]"
	touch $@

# The HTML reports are tested in headless Chromium: Debian's package, installed here when missing and we can.
BROWSERS := chromium chromium-browser google-chrome

$(VENV)/.test: pyproject.toml $(VENV)/.core
	$(PIPQ) -e ".[dev,triton,tpu,helion,progress,libs,mcp,ray]" "$(TORCH_SPEC)"
	@for b in $(BROWSERS); do command -v $$b >/dev/null 2>&1 && exit 0; done; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else echo "note: no chromium and no way to install it (needs root and apt-get): the browser tests skip"; fi
	# tilefit check's compile tests read SGLang's kernel and MoE tables from its wheel (never installed); the
	# Pallas tests read vLLM's TPU kernels from tpu-inference's wheel the same way.
	$(PIP) download --quiet --disable-pip-version-check --no-deps sglang==0.5.23 liger-kernel==0.8.5 tpu-inference==0.32.0 -d .cache/wheels
	touch $@

$(VENV)/.demo: pyproject.toml $(VENV)/.core
	$(PIPQ) -e ".[triton,progress]"
	touch $@

setup-core: $(VENV)/.core
setup-test: $(VENV)/.test

demo: $(VENV)/.demo
	$(BIN)/python scripts/demo.py

test: $(VENV)/.test
	$(BIN)/ruff check src tests
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -p no:cacheprovider

test-unit: $(VENV)/.core
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/unit tests/kb

lint: $(VENV)/.core
	$(BIN)/ruff check src tests
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist src/*.egg-info

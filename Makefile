# The README's quick start:
#   make lab   — set up and open JupyterLab on the notebooks
#   make test  — set up and run the whole suite (unit tests, doctests, notebooks, browser tests)
#   make soak  — before a release: the long soaks, 10,000 Note Snap and 2,000 Keyboard Duel
#                random games with every invariant checked (the suite plays a seeded sample)
#   make bench — run every benchmark and print its figures
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# JupyterLab refuses to run as root unless told it may.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab test soak setup setup-dev chromium print-tools test-audio proxy lint typecheck check bench classroom lite

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Installs into .venv with uv (from PyPI: it installs in seconds what pip takes most of a
# minute to), or with pip where uv cannot be had. Both leave the packages compiled to
# bytecode (pip does it by default, uv when asked): else every kernel, server and test
# process compiles what it imports again, wherever PYTHONDONTWRITEBYTECODE is set or the
# folder cannot be written (a kernel importing music21 spends 0.9 s of CPU instead of 0.25).
INSTALL = $(BIN)/python -m pip install --quiet uv && $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python --upgrade pip $(1) \
	|| ($(BIN)/python -m pip install --quiet --upgrade pip && $(BIN)/python -m pip install --quiet $(1))

$(VENV)/.setup: pyproject.toml | $(BIN)/python
	$(call INSTALL,-e .)
	touch $@

$(VENV)/.setup-dev: pyproject.toml | $(BIN)/python
	$(call INSTALL,-e ".[dev]")
	touch $(VENV)/.setup $@

$(VENV)/.setup-classroom: pyproject.toml | $(BIN)/python
	$(call INSTALL,-e ".[classroom]")
	touch $(VENV)/.setup $@

setup: $(VENV)/.setup
setup-dev: $(VENV)/.setup-dev

lab: setup print-tools
	$(BIN)/jupyter lab $(ROOT_FLAG) --ServerApp.root_dir="$(CURDIR)" notebooks/welcome.ipynb

# The games, practice and lessons as web apps for a class (see the README, "In the classroom").
# CLASSROOM_ARGS passes options on, e.g. make classroom CLASSROOM_ARGS="--ip 0.0.0.0 --class-folder ~/class-3b"
classroom: $(VENV)/.setup-classroom
	$(BIN)/python -m musicgames.classroom $(CLASSROOM_ARGS)

$(VENV)/.setup-lite: pyproject.toml | $(BIN)/python
	$(call INSTALL,-e ".[lite]")
	touch $(VENV)/.setup $@

# The games as a static site in site/, for any web server (see the README, "A class with no
# server"); downloads are kept in build/lite, so the next build fetches nothing.
lite: $(VENV)/.setup-lite
	$(BIN)/python -m musicgames.lite build --out site/

# Browser tests drive Debian's Chromium; install it when missing and we may (root).
chromium:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Debian's Chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
		echo "NOTE: /usr/bin/chromium is missing and cannot be installed here (needs root and apt-get): browser tests will be skipped."; \
	fi

# Print-and-play PDFs are made with librsvg's rsvg-convert (chosen in benchmarks/bench_cards.py)
# in DejaVu Sans; the tests read them back with poppler's pdftotext and pdftoppm.
PRINT_DEBS := librsvg2-bin poppler-utils fonts-dejavu-core
print-tools:
	@if command -v rsvg-convert >/dev/null && command -v pdftoppm >/dev/null \
		&& [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing $(PRINT_DEBS) for the print-and-play cards"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(PRINT_DEBS) >/dev/null; \
	else \
		echo "NOTE: rsvg-convert or pdftoppm is missing and cannot be installed here (needs root and apt-get): install $(PRINT_DEBS) to print cards; their PDF tests will be skipped."; \
	fi

# The microphone's tests and benchmark play real instruments: FluidSynth renders them with the
# FluidR3 General MIDI SoundFont. Install them when missing and we may (root), as for Chromium.
AUDIO_DEBS := fluidsynth fluid-soundfont-gm
test-audio:
	@if command -v fluidsynth >/dev/null && [ -e /usr/share/sounds/sf2/FluidR3_GM.sf2 ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing $(AUDIO_DEBS) for the microphone's test audio"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(AUDIO_DEBS) >/dev/null; \
	else \
		echo "NOTE: fluidsynth or the FluidR3 SoundFont is missing and cannot be installed here (needs root and apt-get): install $(AUDIO_DEBS); the microphone's tests will be skipped."; \
	fi

# The JupyterHub test needs node and configurable-http-proxy (npm); install them when missing
# and we may (root), as for Chromium.
proxy:
	@if command -v configurable-http-proxy >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v npm >/dev/null; then \
		echo "Installing configurable-http-proxy (npm) for the JupyterHub test"; \
		npm install -g --silent configurable-http-proxy >/dev/null; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing node and configurable-http-proxy for the JupyterHub test"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null \
		&& npm install -g --silent configurable-http-proxy >/dev/null; \
	else \
		echo "NOTE: configurable-http-proxy is missing and cannot be installed here (needs root, npm or apt-get): the JupyterHub test will be skipped."; \
	fi

lint: setup-dev
	$(BIN)/ruff check musicgames tests benchmarks

typecheck: setup-dev
	$(BIN)/mypy

# mypy checks the types beside the tests (the suite leaves a core free while it waits on
# pages and servers) and says what it found when they end.
test: setup-dev chromium print-tools test-audio proxy lint
	@$(BIN)/mypy > $(VENV)/mypy.log 2>&1 & types=$$!; \
	$(BIN)/python -m pytest --durations=20 --doctest-modules --doctest-glob=README.md --nbmake \
		musicgames README.md tests $(wildcard notebooks lessons); tests=$$?; \
	wait $$types; typed=$$?; echo "mypy:"; cat $(VENV)/mypy.log; \
	[ $$tests = 0 ] && [ $$typed = 0 ]

# The tests marked soak, in full (pytest --soak): run before a release.
soak: setup-dev
	$(BIN)/python -m pytest tests -m soak --soak

bench: setup-dev test-audio
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# One command sets up and runs the offline demo; one sets up and runs the tests.
PYTHON ?= python3
SHELL := /bin/bash
# pip warns once per package about find-links folders a machine's pip config names but lacks,
# and setuptools' editable build says it uses a path finder: neither says anything about
# clickwright, so they are left out of what a person reads.
QUIET_PIP := 2>&1 | { grep -v "is ignored: it is neither a file nor a directory" || true; }
PIP = PYTHONWARNINGS=ignore::UserWarning $(PY) -m pip
VENV := .venv
PY := $(VENV)/bin/python
DEBIAN_PACKAGES := xvfb xauth xdotool x11-utils fonts-dejavu-core libgl1 libegl1 libfontconfig1 \
	libdbus-1-3 libxkbcommon0 libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 \
	libxcb-image0 libxcb-render-util0 libxcb-xinerama0 libxcb-randr0 libxcb-shape0 libxcb-xkb1 \
	libtk8.6 at-spi2-core dbus-daemon tesseract-ocr tesseract-ocr-eng chromium chromium-driver \
	yad zenity mousepad galculator idle3 openbox xclip \
	featherpad gnumeric qalculate-gtk gxmessage gtk-3-examples kdialog speedcrunch l3afpad pluma geany

.PHONY: demo test unit bench system-deps venv clean

demo: venv
	$(VENV)/bin/clickwright demo

# The unit tests share both cores; the end-to-end ones run after them, one at a time, as real
# windows and their timing need the machine to themselves. Both halves run; either failing
# fails the target (pytest's 5, "nothing collected" by a -k filter, is no failure).
test: venv
	@status=0; \
	$(PY) -m pytest -q -m "not slow" -n 2 $(PYTEST_ARGS) || { s=$$?; [ $$s = 5 ] || status=$$s; }; \
	$(PY) -m pytest -q -m slow --durations=12 $(PYTEST_ARGS) || { s=$$?; [ $$s = 5 ] || status=$$s; }; \
	exit $$status

unit: venv
	$(PY) -m pytest -q -m "not slow" -n 2 $(PYTEST_ARGS)

bench: venv
	$(PY) benchmarks/step_latency.py
	$(PY) benchmarks/loop_overhead.py
	$(PY) benchmarks/parser.py
	$(VENV)/bin/clickwright bench miniwob --episodes 5 --workers 2

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml .system-deps
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@echo "installing clickwright and its Python packages into $(VENV) (a few minutes the first time)"
	@set -o pipefail; $(PIP) install -q --upgrade pip $(QUIET_PIP)
	@set -o pipefail; $(PIP) install -q -e '.[test,api,torch,models,bench]' $(QUIET_PIP)
	@touch $@

system-deps: .system-deps

.system-deps: Makefile
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -z "$$missing" ]; then touch $@; \
	elif [ "$$(id -u)" = 0 ]; then \
		echo "installing Debian packages:" $$missing; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; } \
			> .apt.log 2>&1 || { cat .apt.log; exit 1; }; touch $@; \
	else \
		echo "clickwright needs Debian packages: sudo apt-get install -y $$missing"; exit 2; \
	fi

clean:
	rm -rf $(VENV) .system-deps build *.egg-info

# Thin wrapper over CMake. The two commands that matter:
#   make run    install missing packages, build, start the server on :8080
#   make test   install missing packages (with the browser-test ones), build,
#               run every test (the browser tests included)
# Extra server flags: make run ARGS="--port 9000 --log-level debug"

BUILD_DIR  := build
BUILD_TYPE ?= RelWithDebInfo
JOBS       ?= 2
ARGS       ?=
# install-deps.sh mode: `make test` (and what it builds on the way) also
# installs Chromium and Node.js for the browser tests; `make run` does not.
DEPS_FLAGS ?=

.PHONY: all deps configure build run test bench bot-league clean

all: build

deps:
	@bash scripts/install-deps.sh $(DEPS_FLAGS)

# ccache, where installed, makes a rebuild after a checkout cheap; it is not needed.
LAUNCHER := $(if $(shell command -v ccache),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

# CMake re-configures by itself when a CMakeLists.txt changes, so configure
# explicitly only when there is no cache yet.
configure: deps
	@test -f $(BUILD_DIR)/CMakeCache.txt || \
	  cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(LAUNCHER)

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)

# exec: the server replaces the shell, so Ctrl-C and signals reach it directly.
# The default database is ./data/parlour.db. The server's first info line says
# the address to open, with the port it really listens on (ARGS may change it).
run: build
	@mkdir -p data
	exec ./$(BUILD_DIR)/server/parlour $(ARGS)

# Target-specific, so the deps step that `test` runs through `build` sees it.
test: DEPS_FLAGS = --test
# -j2: the two halves of test_rules run side by side; every other test is
# RUN_SERIAL (tests/CMakeLists.txt) and runs alone.
test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure --timeout 600 -j2

bench: build
	@if [ -x ./$(BUILD_DIR)/bench/parlour_bench ]; then \
	  exec ./$(BUILD_DIR)/bench/parlour_bench $(ARGS); \
	else \
	  echo "bench: no benchmark built yet (./$(BUILD_DIR)/bench/parlour_bench does not exist)"; \
	fi

# How each game's level-1 bot fares against random players (issue 18's league).
bot-league: build
	./$(BUILD_DIR)/bench/bot_league $(ARGS)

# Removes the build only; ./data (the chip ledger) is never touched.
clean:
	rm -rf $(BUILD_DIR)

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
CONFIGURE = test -f $(BUILD_DIR)/CMakeCache.txt || \
	  cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(LAUNCHER)
COMPILE = cmake --build $(BUILD_DIR) -j$(JOBS)

configure: deps
	@$(CONFIGURE)

build: configure
	$(COMPILE)

# exec: the server replaces the shell, so Ctrl-C and signals reach it directly.
# The default database is ./data/parlour.db. The server's first info line says
# the address to open, with the port it really listens on (ARGS may change it).
run: build
	@mkdir -p data
	exec ./$(BUILD_DIR)/server/parlour $(ARGS)

# The build packages first; then the test-only ones (Chromium, clang, PostgreSQL,
# HAProxy, nginx, Node.js: mostly downloading and unpacking) install in the
# background while the plain tree compiles on both cores, and the tests start
# when both are done. Their apt output goes to $(BUILD_DIR)/install-test-deps.log,
# printed when the install fails.
# -j2: the two halves of test_rules run side by side, then the two halves of
# test_integration; every other test is RUN_SERIAL (tests/CMakeLists.txt) and
# runs alone.
TEST_DEPS_LOG = $(BUILD_DIR)/install-test-deps.log
test: deps
	@mkdir -p $(BUILD_DIR); \
	bash scripts/install-deps.sh --test > $(TEST_DEPS_LOG) 2>&1 & installing=$$!; \
	{ $(CONFIGURE); } && $(COMPILE); built=$$?; \
	if ! wait $$installing; then \
	  cat $(TEST_DEPS_LOG); echo "make test: installing the test packages failed (above)" >&2; exit 1; \
	fi; \
	tail -n 1 $(TEST_DEPS_LOG); \
	test $$built -eq 0 || exit $$built; \
	ctest --test-dir $(BUILD_DIR) --output-on-failure --timeout 600 -j2

# The boardgame.io peer's pinned npm packages go into $(BUILD_DIR)/peers/boardgameio
# (tests/support/npm_ci.sh, again only when its package.json or lock changed);
# without node or npm, or the registry, the bench runs without it and says so.
bench: build
	@if [ -z "$(findstring --no-peers,$(ARGS))" ] && command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
	  bash tests/support/npm_ci.sh bench/peers/boardgameio $(BUILD_DIR)/peers/boardgameio bench_peers >/dev/null || \
	    echo "bench: boardgame.io's npm packages could not be installed; its rows are left out"; \
	fi
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

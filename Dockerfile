# Parlour container image. Build from the repository root:
#   docker build -t parlour .
# Kept simple and checked by reading: no Docker engine runs on our dev machines.

# ---- build stage -----------------------------------------------------------
FROM debian:bookworm-slim AS build

# The build packages are the ones `make run` installs, from the one list
# (scripts/install-deps.sh), so the image cannot drift from it (it had: the
# image lacked libssl-dev once TLS came).
COPY scripts/install-deps.sh /tmp/install-deps.sh
RUN bash /tmp/install-deps.sh && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# Only what the server is compiled from, so that an edit to the README, the web
# client or a test does not compile everything again (bench/ and tests/support/
# are configured, not built: the benchmark's CMakeLists names their files).
COPY CMakeLists.txt ./
COPY rules rules
COPY protocol protocol
COPY storage storage
COPY server server
COPY bench bench
COPY tests/support tests/support
RUN cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
 && cmake --build build -j2 --target parlour

# ---- runtime stage ---------------------------------------------------------
FROM debian:bookworm-slim

# SQLiteCpp is linked statically on bookworm (libsqlitecpp-dev ships only
# libSQLiteCpp.a; there is no libsqlitecpp0 package), so only SQLite itself,
# spdlog and fmt are needed at run time, and libpqxx (with libpq) for
# --db postgresql://...; Boost.Asio/Beast are header-only.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libsqlite3-0 libspdlog1.10 libfmt9 libjemalloc2 libpqxx-6.4 libsodium23 libssl3 ca-certificates \
 && rm -rf /var/lib/apt/lists/*

# A fixed uid and gid (10001), so that a folder bind-mounted from the host can be
# given to it: `chown 10001:10001 ./parlour-data` (docs/server.md "Docker").
RUN groupadd --system --gid 10001 parlour \
 && useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/parlour --shell /usr/sbin/nologin parlour \
 && mkdir -p /var/lib/parlour \
 && chown parlour:parlour /var/lib/parlour

COPY --from=build /src/build/server/parlour /usr/local/bin/parlour
COPY web-client /usr/share/parlour/web-client

# Fail the image build, naming the library, if a shared library is missing.
RUN ! ldd /usr/local/bin/parlour | grep 'not found'

USER parlour
VOLUME /var/lib/parlour
EXPOSE 8080
# No HEALTHCHECK: the runtime image has no curl; probe GET /healthz from outside.
STOPSIGNAL SIGTERM
CMD ["parlour","--bind","0.0.0.0","--port","8080","--db","/var/lib/parlour/parlour.db","--web-root","/usr/share/parlour/web-client"]

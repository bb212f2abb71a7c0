#!/bin/sh
# First start: a cluster whose user `parlour` (password $POSTGRES_PASSWORD)
# owns the database `parlour`, reachable from the other containers.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}" > /tmp/pwfile
  initdb -D "$PGDATA" -U parlour --auth-local=trust --auth-host=scram-sha-256 --pwfile=/tmp/pwfile -E UTF8 --locale=C
  rm -f /tmp/pwfile
  echo "host all all 0.0.0.0/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  pg_ctl -D "$PGDATA" -w start -o "-c listen_addresses=''"
  createdb -U parlour parlour
  pg_ctl -D "$PGDATA" -w stop
fi
exec postgres -D "$PGDATA"

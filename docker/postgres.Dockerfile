# PostgreSQL from Debian's own package, for docker/compose.cluster.yaml.
FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
COPY postgres-start.sh /usr/local/bin/postgres-start.sh
USER postgres
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
VOLUME /var/lib/postgresql/data
EXPOSE 5432
# PostgreSQL's fast shutdown: `docker stop` then ends it cleanly (SIGTERM is a
# smart shutdown that waits for every client, and docker kills it after 10 s,
# so the next start ran crash recovery).
STOPSIGNAL SIGINT
CMD ["sh", "/usr/local/bin/postgres-start.sh"]

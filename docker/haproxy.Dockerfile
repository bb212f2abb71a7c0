# HAProxy from Debian's own package, for docker/compose.cluster.yaml.
FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends haproxy \
 && rm -rf /var/lib/apt/lists/*
COPY haproxy.cfg /etc/haproxy/haproxy.cfg
USER haproxy
EXPOSE 8080
CMD ["haproxy", "-db", "-f", "/etc/haproxy/haproxy.cfg"]

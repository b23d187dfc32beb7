#!/usr/bin/env bash
# Builds the benchmark module and runs every benchmark; writes docs/benchmarks.md and
# docs/benchmarks.png (see benchmarks/README.md).
#
#   scripts/benchmarks.sh                  full run: about 7 minutes on 2 cores
#   scripts/benchmarks.sh --quick          smoke run (seconds per part; figures meaningless)
#   scripts/benchmarks.sh --max-load=2.5   first wait (up to 1 h) until the 1-minute load is < 2.5
#   scripts/benchmarks.sh --only=kernel,redis,faces --out=docs
#   scripts/benchmarks.sh --only=etcd,zookeeper,mariadb   single storage backends of "faces":
#                                          redis-faces, azure, postgres, etcd, zookeeper, mariadb
#   scripts/benchmarks.sh --only=primitives   semaphores and reader-writer locks, Redis and ZooKeeper
#
# Needs Java 17, redis-server (apt-get install redis-server), Azurite (npm, installed here from
# hostloom-azure/package-lock.json when missing), etcd (apt-get install etcd-server) and mariadbd
# (apt-get install mariadb-server). PostgreSQL comes from the embedded-postgres jar, ZooKeeper from
# Curator's TestingServer (in the benchmark JVM).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x hostloom-azure/node_modules/.bin/azurite-blob ]; then
  echo "benchmarks: installing Azurite with npm ci (hostloom-azure/package-lock.json)"
  npm ci --prefix hostloom-azure --no-audit --no-fund --loglevel=error
fi
# tests and format checks belong to the normal build; -DskipTests still compiles the tests, so the
# backends' test-jars (their server launchers, used by the benchmarks) are packaged
./mvnw -B -q -ntp -Pbenchmarks -pl benchmarks -am package -DskipTests \
  -Dspotless.check.skip=true
exec java -jar benchmarks/target/benchmarks.jar --command="scripts/benchmarks.sh${*:+ $*}" "$@"

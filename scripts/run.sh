#!/usr/bin/env bash
# Builds and runs the WOPI host on its embedded defaults: in-memory locks, ./wopi-docs, port 8080.
# Extra arguments go to the host, e.g. scripts/run.sh --server.port=8081
# It opens the demo door (/api/token, /open/{id}, lock ids on the page) for direct loopback requests;
# arguments override it: scripts/run.sh --wopi-host.demo-tokens=false
set -euo pipefail
cd "$(dirname "$0")/.."
echo "run.sh: building the WOPI host and the modules it needs (tests skipped; the first build"
echo "run.sh: downloads Maven and the dependencies and takes a few minutes, later ones less)"
# Maven's own progress, one line per module ("Building ... [n/m]"), plus errors and the
# result; the full log is kept in target/run-build.log for when something fails
mkdir -p target
./mvnw -B -ntp -pl wopi-host -am package -DskipTests 2>&1 | tee target/run-build.log \
  | grep --line-buffered -E '^\[INFO\] Building .*\[[0-9]+/[0-9]+\]|^\[ERROR\]|BUILD (SUCCESS|FAILURE)|Total time'
exec java -Dwopi-host.demo-tokens=true -jar wopi-host/target/wopi-host.jar "$@"

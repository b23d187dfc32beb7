#!/usr/bin/env bash
# Builds and runs the WOPI host on its embedded defaults: in-memory locks, ./wopi-docs, port 8080.
# Extra arguments go to the host, e.g. scripts/run.sh --server.port=8081
# It opens the demo door (/api/token, /open/{id}, lock ids on the page) for direct loopback requests;
# arguments override it: scripts/run.sh --wopi-host.demo-tokens=false
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -ntp -pl wopi-host -am install -DskipTests
exec java -Dwopi-host.demo-tokens=true -jar wopi-host/target/wopi-host.jar "$@"

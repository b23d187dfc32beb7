#!/usr/bin/env bash
# Installs what the tests need on a fresh Debian/Ubuntu machine; skips what is already there.
#   redis-server  (apt)   : the Redis backend's tests start it on a free port
#   chromium      (apt)   : the WOPI host's page is tested in headless Chromium
#   etcd-server   (apt)   : the etcd backend's tests start etcd members on free ports
#   mariadb-server (apt)  : the JDBC backend's MariaDB tests start mariadbd on a free port
#   azurite 3.35.0 (npm)  : the Azure backend's tests start it on a free port (pinned in hostloom-azure/package.json)
# PostgreSQL needs nothing: the tests use embedded PostgreSQL binaries from Maven Central.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
[ -x /usr/sbin/mariadbd ] || command -v mariadbd >/dev/null 2>&1 || missing+=(mariadb-server)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]} with apt-get"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ -f hostloom-azure/package.json ]; then
  if [ ! -x hostloom-azure/node_modules/.bin/azurite-blob ]; then
    echo "setup: installing Azurite with npm ci (hostloom-azure/package-lock.json)"
    npm ci --prefix hostloom-azure --no-audit --no-fund --loglevel=error
  fi
fi
echo "setup: ok (redis-server $(redis-server --version | awk '{print $3}'))"

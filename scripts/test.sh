#!/usr/bin/env bash
# The project's test command: installs missing test servers, then runs the full build
# (formatting check, Error Prone, unit tests, conformance suites against real Redis, Azurite
# and embedded PostgreSQL, WOPI host end-to-end tests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec ./mvnw -B -ntp verify "$@"

#!/usr/bin/env bash
# The project's test command: installs missing test servers, then runs the full build
# (formatting check, Error Prone, unit tests, conformance suites against real Redis, Azurite
# and embedded PostgreSQL, WOPI host end-to-end tests). Two modules build at once (-T 2): most of
# the time goes to tests that wait on servers and leases, so the second core is otherwise idle.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec ./mvnw -B -ntp -T 2 verify "$@"

#!/usr/bin/env bash
# The README's test command: installs what is missing (the test tools too), then runs every test (unit and test bed)
# and ends with the plain line "N passed, N failed".
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
bash scripts/bootstrap.sh tests
export PATH="$repo/node_modules/.bin:$PATH"
# turbo's cache outside the clone, like every other cache: a fresh clone re-checks only the packages that changed.
. scripts/cache-dir.sh
export TURBO_CACHE_DIR="$zkoam_cache_dir/turbo"
t0=$(date +%s)
mkdir -p test-results
status=0
# What ships: every controller bundled into controllers/<name>/dist/ (the bed runs these; cached by turbo).
node_modules/.bin/turbo run build --output-logs=errors-only || status=$?
# The typecheck and the lint budgets (STYLE.md habit 12) run beside the tests, niced: the bed's files spend most of their
# time waiting on elections and rollouts, so the two (about 60 s before the tests when run first) take the cores the bed
# leaves idle. A finding fails the run like a failed test; their output prints after the tests'.
checks_log=$(mktemp)
( status=0
  nice -n 10 bash scripts/typecheck.sh || status=$?
  nice -n 10 node_modules/.bin/eslint . || status=$?
  exit "$status" ) >"$checks_log" 2>&1 &
checks_pid=$!
# In a network namespace of the tests' own (scripts/bed-network.sh): the beds add namespaces, routes and firewall rules.
bash scripts/bed-network.sh vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@" || status=$?
wait "$checks_pid" || status=$?
echo "typecheck and lint:"
cat "$checks_log" && rm -f "$checks_log"
node test/scripts/summary.mjs test-results/vitest.json "$status" "$(( $(date +%s) - t0 ))"

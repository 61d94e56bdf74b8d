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
# Lint budgets (STYLE.md habit 12); like the typecheck, a finding fails the run but the tests still run. ESLint and tsc
# each use one core: side by side, they take the time of the longer one. Its findings print once it is done.
lint_log=$(mktemp)
node_modules/.bin/eslint . >"$lint_log" 2>&1 &
lint_pid=$!
bash scripts/typecheck.sh || status=$?
# What ships: every controller bundled into controllers/<name>/dist/ (the bed runs these; cached by turbo).
node_modules/.bin/turbo run build --output-logs=errors-only || status=$?
wait "$lint_pid" || status=$?
cat "$lint_log" && rm -f "$lint_log"
# In a network namespace of the tests' own (scripts/bed-network.sh): the beds add namespaces, routes and firewall rules.
bash scripts/bed-network.sh vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@" || status=$?
node test/scripts/summary.mjs test-results/vitest.json "$status" "$(( $(date +%s) - t0 ))"

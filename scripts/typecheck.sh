#!/usr/bin/env bash
# `npm run typecheck`: three programs side by side, each file checked once (tsconfig.json says why): the controllers
# with apis, the console, the tests. Fails if any of them has an error; every error is printed.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
tsc=node_modules/.bin/tsc
pids=()
for project in . console test; do
  "$tsc" -p "$project" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit "$status"

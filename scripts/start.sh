#!/usr/bin/env bash
# The README's start command: installs what is missing, starts the embedded cluster in the background
# (npm run cluster:up) and shows the system working on it.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
bash scripts/cluster.sh up
. scripts/cache-dir.sh
export TURBO_CACHE_DIR="$zkoam_cache_dir/turbo"
# The controllers run from their bundles (controllers/<name>/dist/); turbo rebuilds only what changed.
node_modules/.bin/turbo run build --output-logs=errors-only
export PATH="$repo/node_modules/.bin:$PATH"
# In the bed's network (the daemon's namespace), where the pods and Services are.
exec nsenter --net="/proc/$(cat .cluster/bed.pid)/ns/net" tsx test/src/start.ts

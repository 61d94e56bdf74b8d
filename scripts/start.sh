#!/usr/bin/env bash
# The README's start command: installs what is missing, starts the embedded cluster in the background
# (npm run cluster:up) and shows the system working on it.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
bash scripts/cluster.sh up
export PATH="$repo/node_modules/.bin:$PATH"
# In the bed's network (the daemon's namespace), where the pods and Services are.
exec nsenter --net="/proc/$(cat .cluster/bed.pid)/ns/net" tsx test/src/start.ts

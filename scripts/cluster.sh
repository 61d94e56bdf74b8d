#!/usr/bin/env bash
# `npm run cluster:up|down`: up installs what is missing (bootstrap.sh) and starts the test bed in the
# background (state and admin kubeconfig in .cluster/); down stops it and every process it started.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
case "${1:-}" in
  up) bash scripts/bootstrap.sh ;;
  down) ;;
  *) echo "usage: $0 up|down" >&2; exit 2 ;;
esac
export PATH="$repo/node_modules/.bin:$PATH"
exec tsx test/src/cli.ts "$1"

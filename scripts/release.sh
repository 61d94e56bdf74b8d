#!/usr/bin/env bash
# `npm run release`: a release of the working tree into dist/release/<version>/ (test/src/release/main.ts): the six
# images, the chart, the kubectl install manifest, the CRDs and the release notes. REGISTRY=<host[:port]/prefix>
# pushes the images and the chart there. Installs what it needs first: the image tools (bootstrap.sh images), Helm,
# and kubectl (with the control plane, whose build it shares) for kustomize.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
bash scripts/bootstrap.sh images
exec node_modules/.bin/tsx test/src/release/main.ts "$@"

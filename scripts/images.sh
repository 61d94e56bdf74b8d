#!/usr/bin/env bash
# `npm run images [-- --push]`: installs what building images needs (npm packages, buildah, mmdebstrap, skopeo...),
# then builds the eight images from the Dockerfile and the bed's two ZooKeeper images (test/images/zookeeper/); with
# --push and REGISTRY=<host[:port]/prefix>, pushes the six there.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
bash scripts/bootstrap.sh images
exec node_modules/.bin/tsx test/src/images/main.ts "$@"

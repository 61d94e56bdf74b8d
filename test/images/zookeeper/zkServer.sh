#!/bin/bash
# The official layout look-alike's stand-in for the release's bin/zkServer.sh (the image is built from Debian's jars,
# not from a release): `start-foreground` only, the official image's command. zk-oam's start script does not run it; it
# finds the release directory by it.
set -euo pipefail
home=$(cd "$(dirname "$0")/.." && pwd)
conf_dir=${ZOOCFGDIR:-${home}/conf}
[[ "${1:-}" == start-foreground ]] || { echo "zkServer.sh (look-alike): only start-foreground" >&2; exit 2; }
exec java -cp "${conf_dir}:${home}/lib/*" org.apache.zookeeper.server.quorum.QuorumPeerMain "${conf_dir}/zoo.cfg"

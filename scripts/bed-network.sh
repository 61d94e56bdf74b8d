#!/usr/bin/env bash
# Runs a command in a network namespace of its own (and a mount namespace, for its /run/netns): the test bed adds its
# nodes' namespaces, veth pairs, routes and nftables rules there, so nothing reaches the machine's own network, and
# all of it goes when the command ends. Marks the command with ZKOAM_BED_NETWORK=1, which a bed needs to start.
# Usage: bed-network.sh <command> [args...]. Needs root (the bed runs containers with runc already).
set -euo pipefail
if [ "${ZKOAM_BED_NETWORK:-}" = 1 ]; then
  exec "$@"
fi
if [ "$(id -u)" != 0 ]; then
  echo "bed-network.sh: the test bed needs root (network namespaces, runc); run as root" >&2
  exit 3
fi
mkdir -p /run/netns
# Each command runs with `exec`, so the pid the caller knows stays the command's (cluster:up records it).
exec unshare --net --mount --propagation private -- bash -c '
  set -e
  mount -t tmpfs -o mode=755 zkoam-bed-netns /run/netns
  ip link set lo up
  ZKOAM_BED_NETWORK=1 exec "$@"' bed-network "$@"

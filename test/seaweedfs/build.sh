#!/usr/bin/env bash
# Builds SeaweedFS' `weed` command from the Go module pinned in go.mod into a cache directory outside the repository,
# once per version, as the control plane and Helm are built (never a downloaded release archive). It is the real
# S3-compatible server the backup tests write to (test/src/s3/seaweedfs.ts starts it); only the tests need it, so
# `bootstrap.sh tests` builds it and `npm start` does not. Without build tags, `weed` leaves out the optional filer
# stores and remote backends (elastic, gocdk, sqlite, ydb, tarantool, tikv, rclone), which its `make` adds. Prints the
# binary's path on its last line of stdout (progress goes to stderr). With --cached it builds nothing: it exits 1 when
# the binary is not cached.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tag=seaweedfs
module=github.com/seaweedfs/seaweedfs
# shellcheck source=../go-module-build.sh
. "$here/../go-module-build.sh"
built() { [ -x "$out/weed" ]; }
[ "${1:-}" != --cached ] || only_if_cached=true
begin_cached_build seaweedfs seaweedfs weed

log "building $module $version (weed) with $("$gobin" version | cut -d' ' -f3) into $out"
log "a cold build takes about 15 minutes on 2 cores shared with other work (906 s measured; about 1,740 packages, a 157 MB"
log "binary): its default build already leaves out every optional backend; progress follows"
build_with_progress "$out.partial/weed" "$module/weed" "-s -w"
finish_cached_build "$(du -h "$out.partial/weed" | cut -f1), $("$out.partial/weed" version 2>&1 | head -n 1)"

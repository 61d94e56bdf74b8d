#!/usr/bin/env bash
# Builds VersityGW's `versitygw` command from the Go module pinned in go.mod into a cache directory outside the
# repository, once per version, as the control plane and Helm are built (never a downloaded release archive). It is the
# real S3-compatible server the backup tests write to (test/src/s3/s3-server.ts starts it, on its POSIX backend); only
# the tests need it, so `bootstrap.sh tests` builds it and `npm start` does not. Prints the binary's path on its last
# line of stdout (progress goes to stderr). With --cached it builds nothing: it exits 1 when the binary is not cached.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tag=versitygw
module=github.com/versity/versitygw
# shellcheck source=../go-module-build.sh
. "$here/../go-module-build.sh"
built() { [ -x "$out/versitygw" ]; }
[ "${1:-}" != --cached ] || only_if_cached=true
begin_cached_build versitygw versitygw versitygw

log "building $module $version (versitygw) with $("$gobin" version | cut -d' ' -f3) into $out"
log "a cold build takes about 2 minutes on 2 cores (about 590 packages, a 43 MB binary; 78 CPU-seconds); progress follows"
build_with_progress "$out.partial/versitygw" "$module/cmd/versitygw" "-s -w -X main.Version=$version -X main.Build=module"
finish_cached_build "$(du -h "$out.partial/versitygw" | cut -f1), $("$out.partial/versitygw" --version 2>&1 | head -n 1)"

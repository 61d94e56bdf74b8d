#!/usr/bin/env bash
# Builds the cue CLI from the Go module pinned in go.mod into a cache directory outside the repository, once per
# version, as the control plane and Helm are built (never a downloaded release archive). Prints the binary's path on
# its last line of stdout (progress goes to stderr).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tag=cue
module=cuelang.org/go
# shellcheck source=../go-module-build.sh
. "$here/../go-module-build.sh"
built() { [ -x "$out/cue" ]; }
begin_cached_build cue cue cue

log "building $module $version with $("$gobin" version | cut -d' ' -f3) into $out"
log "a cold build takes about a minute on 2 cores (about 500 packages); progress follows"
# `cue version` reads the module version from the build information; nothing needs stamping.
unoptimized_test_tool
build_with_progress "$out.partial/cue" "$module/cmd/cue" "-s -w"
finish_cached_build "$(du -h "$out.partial/cue" | cut -f1)"

#!/usr/bin/env bash
# Builds KubeVela's core controller (vela-core) from the Go module pinned in go.mod into a cache directory outside the
# repository, once per version, as the control plane and Helm are built (never a downloaded release archive), and keeps
# the module's own CRDs beside it (charts/vela-core/crds), so the bed installs the CRDs of the version it runs. Prints
# the directory on its last line of stdout (progress goes to stderr): vela-core and crds/.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tag=kubevela
module=github.com/oam-dev/kubevela
# shellcheck source=../go-module-build.sh
. "$here/../go-module-build.sh"
built() { [ -x "$out/vela-core" ] && [ -d "$out/crds" ]; }
begin_cached_build kubevela kubevela

mkdir -p "$out.partial/crds"
log "building $module $version (cmd/core) with $("$gobin" version | cut -d' ' -f3) into $out"
log "a cold build takes about 4 minutes on 2 cores (about 2,300 packages: 222 s and 245 CPU-seconds measured beside other work,"
log "the standard library cached); progress follows"
# The version is stamped as KubeVela's Makefile does; the controller logs it and writes it on what it manages.
unoptimized_test_tool
build_with_progress "$out.partial/vela-core" "$module/cmd/core" "-s -w -X $module/version.VelaVersion=$version"
install -m 0644 "$(module_source_dir)"/charts/vela-core/crds/*.yaml "$out.partial/crds/"
echo "$version" > "$out.partial/VERSION"
finish_cached_build "$(du -h "$out.partial/vela-core" | cut -f1), $(ls "$out.partial/crds" | wc -l) CRDs"

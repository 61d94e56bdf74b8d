#!/usr/bin/env bash
# Builds Helm from the Go module pinned in go.mod into a cache directory outside the repository, once per version, as
# the control plane and the benchmark's peer are built (never a downloaded release archive). Prints the binary's path
# on its last line of stdout (progress goes to stderr).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tag=helm
module=helm.sh/helm/v3
# shellcheck source=../go-module-build.sh
. "$here/../go-module-build.sh"
built() { [ -x "$out/helm" ]; }
begin_cached_build helm helm helm

log "building $module $version with $("$gobin" version | cut -d' ' -f3) into $out"
log "a cold build takes about 2 minutes on 2 cores (about 960 packages); progress follows"
# The version is stamped as Helm's Makefile does; without it `helm version` says v3.22 and charts' kubeVersion
# checks see that.
unoptimized_test_tool
build_with_progress "$out.partial/helm" "$module/cmd/helm" "-s -w -X $module/internal/version.version=$version -X $module/internal/version.gitTreeState=clean"
finish_cached_build "$(du -h "$out.partial/helm" | cut -f1), $("$out.partial/helm" version --short)"

#!/usr/bin/env bash
# Builds the benchmark's peer, the pravega ZooKeeper operator, from the Go module pinned in go.mod into a cache
# directory outside the repository, once per version, with the CRD its module ships beside the binary. Prints that
# directory on its last line of stdout (progress goes to stderr).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tag=peer
module=github.com/pravega/zookeeper-operator
# shellcheck source=../go-module-build.sh
. "$here/../go-module-build.sh"
built() { [ -x "$out/zookeeper-operator" ] && [ -f "$out/zookeeperclusters.yaml" ]; }
begin_cached_build peer pravega-zookeeper-operator

log "building $module $version with $("$gobin" version | cut -d' ' -f3) into $out"
log "a cold build takes 3-4 minutes on 2 cores (about 650 packages); progress follows"
# The module's source (for its CRD) and the commit its tag names; the version is stamped as upstream's Makefile does
# (without it the binary logs "zookeeper-operator Version: 0.2.1", the source's default).
source_dir=$(module_source_dir)
git_sha=$(module_info | sed -n 's/^\t\t"Hash": "\([0-9a-f]\{7\}\).*/\1/p')
build_with_progress "$out.partial/zookeeper-operator" "$module" "-s -w -X $module/pkg/version.Version=${version#v} -X $module/pkg/version.GitSHA=$git_sha"
# Module files are read-only; the copy is made writable like any other file in the cache.
install -m 0644 "$source_dir/config/crd/bases/zookeeper.pravega.io_zookeeperclusters.yaml" "$out.partial/zookeeperclusters.yaml"
echo "$version" > "$out.partial/VERSION"
finish_cached_build "$(du -h "$out.partial/zookeeper-operator" | cut -f1)"

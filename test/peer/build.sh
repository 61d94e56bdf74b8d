#!/usr/bin/env bash
# Builds the benchmark's peer, the pravega ZooKeeper operator, from the Go module pinned in go.mod into a cache
# directory outside the repository, once per version, with the CRD its module ships beside the binary. Prints that
# directory on its last line of stdout (progress goes to stderr). `go install <module>@<version>` cannot be used: it
# asks the proxy for the module's version list (to check for a deprecation), which the proxy answers with
# "403 Forbidden ... This module version is not available"; building from this module asks for no list.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
module=github.com/pravega/zookeeper-operator
# The one pin: the version go.mod requires (go.sum pins the operator's dependencies).
version=$(awk -v m="$module" '$0 ~ "require " m " " || $1 == m {print $NF}' "$here/go.mod" | head -1)
cache_root=${ZKOAM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/zk-oam}
out="$cache_root/peer/pravega-zookeeper-operator-$version"

log() { printf '[peer] %s\n' "$*" >&2; }
[ -n "$version" ] || { log "no version of $module found in $here/go.mod"; exit 1; }

if [ -x "$out/zookeeper-operator" ] && [ -f "$out/zookeeperclusters.yaml" ]; then
  echo "$out"
  exit 0
fi

gobin=$(command -v go || true)
[ -n "$gobin" ] || { [ -x /usr/local/go/bin/go ] && gobin=/usr/local/go/bin/go; }
[ -n "$gobin" ] || { log "Go toolchain not found: install Go >= 1.26"; exit 3; }

mkdir -p "$cache_root/peer"
exec 9>"$out.lock"
if ! flock -n 9; then
  log "another build into $out is running; waiting for it"
  flock 9
fi
if [ -x "$out/zookeeper-operator" ] && [ -f "$out/zookeeperclusters.yaml" ]; then
  echo "$out"
  exit 0
fi

rm -rf "$out.partial"
mkdir -p "$out.partial"
start=$(date +%s)
cd "$here"
export GOFLAGS=-mod=readonly GOTOOLCHAIN=local
log "building $module $version with $("$gobin" version | cut -d' ' -f3) into $out"
log "a cold build takes 3-4 minutes on 2 cores (about 650 packages); progress follows"
# The module's source (for its CRD) and the commit its tag names; the version is stamped as upstream's Makefile does
# (without it the binary logs "zookeeper-operator Version: 0.2.1", the source's default).
info=$("$gobin" mod download -json "$module@$version")
source_dir=$(printf '%s\n' "$info" | sed -n 's/^\t"Dir": "\(.*\)",\{0,1\}$/\1/p')
git_sha=$(printf '%s\n' "$info" | sed -n 's/^\t\t"Hash": "\([0-9a-f]\{7\}\).*/\1/p')
[ -d "$source_dir" ] || { log "go mod download gave no source directory for $module@$version"; exit 1; }
ldflags="-s -w -X $module/pkg/version.Version=${version#v} -X $module/pkg/version.GitSHA=$git_sha"
total=$("$gobin" list -deps "$module" | wc -l)
"$gobin" build -v -trimpath -ldflags "$ldflags" -o "$out.partial/zookeeper-operator" "$module" 2>&1 | awk -v total="$total" -v start="$start" '
  /^#/ || /: / { print > "/dev/stderr"; next }
  { n++; if (n % 100 == 0) { printf "[peer] compiled %d of ~%d packages (%ds)\n", n, total, systime() - start > "/dev/stderr"; fflush("/dev/stderr") } }'
[ -x "$out.partial/zookeeper-operator" ] || { log "build failed: zookeeper-operator missing"; exit 1; }
# Module files are read-only; the copy is made writable like any other file in the cache.
install -m 0644 "$source_dir/config/crd/bases/zookeeper.pravega.io_zookeeperclusters.yaml" "$out.partial/zookeeperclusters.yaml"
echo "$version" > "$out.partial/VERSION"
rm -rf "$out"
mv "$out.partial" "$out"
log "built in $(( $(date +%s) - start ))s: $(du -h "$out/zookeeper-operator" | cut -f1)"
echo "$out"

#!/usr/bin/env bash
# Builds etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kubectl from
# the Go modules pinned in go.mod into a cache directory outside the repo, once per version.
# Prints the directory holding the binaries on its last line of stdout. With --cached it builds nothing: it exits 1 when
# the binaries are not cached.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tag=controlplane
# shellcheck source=../go-module-build.sh
. "$here/../go-module-build.sh"
# shellcheck source=versions.sh
. "$here/versions.sh"
out=$controlplane_out
binaries=(etcd kube-apiserver kube-controller-manager kube-scheduler kubectl)

if [ -x "$out/kubectl" ] && [ -x "$out/etcd" ] && [ -x "$out/kube-apiserver" ] \
   && [ -x "$out/kube-controller-manager" ] && [ -x "$out/kube-scheduler" ]; then
  echo "$out"
  exit 0
fi
[ "${1:-}" != --cached ] || exit 1

gobin=$(command -v go || true)
[ -n "$gobin" ] || { [ -x /usr/local/go/bin/go ] && gobin=/usr/local/go/bin/go; }
if [ -z "$gobin" ]; then
  log "Go toolchain not found. Install Go >= 1.26 (https://go.dev/dl, or your distribution's golang package),"
  log "or point KUBEBUILDER_ASSETS at a directory holding etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kubectl."
  exit 3
fi

# One build at a time per cache: a second caller waits for the first, then finds the binaries.
mkdir -p "$cache_root/controlplane"
exec 9>"$out.lock"
if ! flock -n 9; then
  log "another build into $out is running; waiting for it"
  flock 9
fi
if [ -x "$out/kubectl" ] && [ -x "$out/kube-scheduler" ]; then
  echo "$out"
  exit 0
fi

rm -rf "$out.partial"
mkdir -p "$out.partial"
start=$(date +%s)
ldflags=$k8s_ldflags
cd "$here"
log "building Kubernetes $k8s_version and etcd $etcd_version with $("$gobin" version | cut -d' ' -f3) into $out"
log "a cold build takes about 4 to 8 minutes on 2 cores (4 alone, longer beside other work); progress follows"
total=$("$gobin" list -deps k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
  k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl ./etcd 2>/dev/null | wc -l)
# One `go build` for all five: its packages compile, and the binaries link, in parallel rather than one after another.
"$gobin" build -v -trimpath "${go_gcflags[@]}" -ldflags "$ldflags" -o "$out.partial/" ./etcd k8s.io/kubernetes/cmd/kube-apiserver \
  k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl 2>&1 \
  | awk -v total="$total" -v start="$start" '
  /^#/ || /: / { print > "/dev/stderr"; next }
  { n++; if (n % 100 == 0) { printf "[controlplane] compiled %d of ~%d packages (%ds)\n", n, total, systime() - start > "/dev/stderr"; fflush("/dev/stderr") } }'
for b in "${binaries[@]}"; do [ -x "$out.partial/$b" ] || { log "build failed: $b missing"; exit 1; }; done
rm -rf "$out" && mv "$out.partial" "$out"
log "built in $(( $(date +%s) - start ))s"
echo "$out"

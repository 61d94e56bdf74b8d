#!/usr/bin/env bash
# Builds the bed's pod network from the Go modules pinned in go.mod into a cache directory outside the repository, once
# per version, as the control plane is built (never a downloaded release archive):
#   cni/bridge, cni/host-local, cni/loopback   the CNI plugins that wire each pod's network namespace
#   coredns       CoreDNS with only the plugins the cluster DNS uses (../controlplane/coredns), static: its image holds
#                 nothing else. Built in the control plane's module graph, where it takes the control plane's versions of
#                 what both use (client-go, gRPC, protobuf, golang.org/x): after the control plane, about 80 of its 525
#                 packages are left to compile, where its own module compiled all of them
#   kube-proxy    from ../controlplane at the control plane's version, in its module graph: after the control plane,
#                 only about 30 of its 1,400 packages are left to compile
# Prints the directory on its last line of stdout (progress goes to stderr). With --cached it builds nothing: it exits 1
# when the binaries are not cached.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tag=network
# shellcheck source=../go-module-build.sh
. "$here/../go-module-build.sh"
# shellcheck source=../controlplane/versions.sh
. "$here/../controlplane/versions.sh"
cni_module=github.com/containernetworking/plugins
cni_version=$(required_version "$here" "$cni_module")
controlplane=$here/../controlplane
coredns_version=$(required_version "$controlplane" github.com/coredns/coredns)
# The plugins' packages, as go.mod's tool block lists them; each is built under its last path element.
cni_plugins=(main/bridge ipam/host-local main/loopback)

built() {
  local plugin
  for plugin in "${cni_plugins[@]}"; do [ -x "$out/cni/${plugin##*/}" ] || return 1; done
  [ -x "$out/coredns" ] && [ -x "$out/kube-proxy" ]
}
# Named by the versions, and by a digest of what else picks the code: the plugins compiled into CoreDNS, the pins.
inputs=$(cat "$here/go.mod" "$here/go.sum" "$controlplane/go.mod" "$controlplane/go.sum" "$controlplane/coredns/main.go" | sha256sum | cut -c1-8)
[ "${1:-}" != --cached ] || only_if_cached=true
begin_build_into "$cache_root/network/cni-$cni_version-coredns-$coredns_version-kube-proxy-$k8s_version-$inputs"

mkdir -p "$out.partial/cni"
log "building CNI plugins $cni_version, CoreDNS $coredns_version and kube-proxy $k8s_version with $("$gobin" version | cut -d' ' -f3) into $out"
log "a cold build takes about 40 seconds on 2 cores once the control plane is built (CoreDNS 15, kube-proxy 10),"
log "8 minutes before it is; progress follows"

# Static, as the plugins' own release is: they run in the node agent's network namespaces, whatever libc the host has.
step=$(date +%s)
for plugin in "${cni_plugins[@]}"; do
  build_with_progress "$out.partial/cni/${plugin##*/}" "$cni_module/plugins/$plugin" \
    "-s -w -X $cni_module/pkg/utils/buildversion.BuildVersion=$cni_version"
done
log "CNI plugins built in $(( $(date +%s) - step ))s"

# CoreDNS and kube-proxy share the control plane's packages, compiled with the same flags: a control-plane build under
# way is waited for rather than compiled beside.
if [ -e "$controlplane_out.lock" ]; then
  exec 8<"$controlplane_out.lock"
  if ! flock -s -n 8; then
    log "waiting for the control plane's build into $controlplane_out, whose packages CoreDNS and kube-proxy share"
    flock -s 8
  fi
  exec 8<&-
fi
cd "$controlplane"
step=$(date +%s)
packages=$("$gobin" list -deps ./coredns | wc -l)
build_with_progress "$out.partial/coredns" ./coredns "-s -w"
log "CoreDNS built in $(( $(date +%s) - step ))s ($packages packages), plugins: $("$out.partial/coredns" -plugins | grep . | paste -sd ' ')"

step=$(date +%s)
build_with_progress "$out.partial/kube-proxy" k8s.io/kubernetes/cmd/kube-proxy "$k8s_ldflags"
log "kube-proxy built in $(( $(date +%s) - step ))s: $("$out.partial/kube-proxy" --version)"

finish_cached_build "$(du -sh "$out.partial" | cut -f1)"

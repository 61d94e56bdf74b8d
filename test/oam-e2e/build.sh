#!/usr/bin/env bash
# Builds, from the Go module oam-kubernetes-runtime pinned in go.mod, into a cache directory outside the repository
# (once per version, as the control plane is built): its e2e suite (test/e2e-test, compiled with `go test -c`) with the
# testdata it reads, the controllers its specs need beside an ApplicationConfiguration runtime (controllers/main.go),
# and the CRDs of their kinds. Prints that directory on its last line of stdout (progress goes to stderr).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tag=oam-e2e
module=github.com/crossplane/oam-kubernetes-runtime
# shellcheck source=../go-module-build.sh
. "$here/../go-module-build.sh"
built() { [ -x "$out/e2e.test" ] && [ -x "$out/oam-runtime-controllers" ] && [ -d "$out/e2e-test/testdata" ] && [ -d "$out/crds" ]; }
begin_cached_build oam-e2e oam-kubernetes-runtime

mkdir -p "$out.partial/crds" "$out.partial/e2e-test"
log "building $module $version's e2e suite and controllers with $("$gobin" version | cut -d' ' -f3) into $out"
log "a cold build takes 2-3 minutes on 2 cores (about 550 packages), plus the module downloads; progress follows"
source_dir=$(module_source_dir)
unoptimized_test_tool
build_with_progress "$out.partial/oam-runtime-controllers" ./controllers "-s -w"
log "compiling the e2e suite (the packages above are reused)"
"$gobin" test -c -trimpath "${go_gcflags[@]}" -o "$out.partial/e2e.test" "$module/test/e2e-test"
# The suite reads testdata/ relative to its working directory. Module files are read-only; copies are made writable.
cp -r "$source_dir/test/e2e-test/testdata" "$out.partial/e2e-test/"
chmod -R u+w "$out.partial/e2e-test"
for kind in containerizedworkloads manualscalertraits healthscopes; do
  install -m 0644 "$source_dir/charts/oam-kubernetes-runtime/crds/core.oam.dev_$kind.yaml" "$out.partial/crds/"
done
echo "$version" > "$out.partial/VERSION"
finish_cached_build

#!/usr/bin/env bash
# Fetches cert-manager's CRDs from the Go module pinned in go.mod (deploy/crds, as the release's cert-manager.crds.yaml
# is made from them) into a cache directory outside the repository, once per version, and makes them plain: the module
# keeps them as Helm templates whose only templated parts are labels, comments and an annotation. No cert-manager
# controller is built or run. Prints the directory of the plain CRDs on its last line of stdout (progress on stderr).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tag=cert-manager
module=github.com/cert-manager/cert-manager
# shellcheck source=../go-module-build.sh
. "$here/../go-module-build.sh"
built() { compgen -G "$out/crds/*.yaml" >/dev/null; }
begin_cached_build cert-manager cert-manager crds

log "fetching $module $version from the Go module proxy (about 10 MB) for its CRDs"
mkdir -p "$out.partial/crds"
source_dir=$(module_source_dir)
for template in "$source_dir"/deploy/crds/crd-*.yaml; do
  plain="$out.partial/crds/$(basename "$template")"
  # The Helm actions sit in comments (dropped, with the optional keep annotation between START and END annotations);
  # the labels take the values the chart gives them for a release named cert-manager.
  sed -e '/# START annotations/,/# END annotations/d' \
    -e '/^ *#.*{{/d' \
    -e "s/'{{ template \"cert-manager.name\" . }}'/cert-manager/" \
    -e "s/'{{ .Release.Name }}'/cert-manager/" \
    "$template" > "$plain"
  if grep -q '{{' "$plain"; then
    log "$(basename "$template") still holds a template after making it plain: $(grep -m1 '{{' "$plain")"
    exit 1
  fi
done
echo "$version" > "$out.partial/VERSION"
finish_cached_build "$(ls "$out.partial/crds" | wc -l) CRDs: $(ls "$out.partial/crds" | tr '\n' ' ')"

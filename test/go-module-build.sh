# Shared by the scripts that build a binary from a pinned Go module into the cache outside the repository
# (test/<tool>/build.sh). Source it after setting `tag` (the log prefix), `here` (the directory of go.mod) and `module`.

log() { printf '[%s] %s\n' "$tag" "$*" >&2; }

# Static, as Kubernetes', etcd's and these tools' own releases are built; and one setting for every build here, so that
# the standard library and every module they share compile once (a package built with cgo is another build of it).
export CGO_ENABLED=0
# The compiler's own garbage collector, less often: building CoreDNS from an empty build cache took 129 CPU-seconds
# against 145 at the default GOGC=100 (11% less, 2026-11-29), for a larger heap, which these machines have. The build
# cache's keys do not include it: what was compiled before is reused.
export GOGC=400
# Every build links with -s -w, which drops the debug information: the compiler need not write it for each package
# either (stack traces use the symbol table, not DWARF).
go_gcflags=(-gcflags 'all=-dwarf=false')

# For a tool only the tests run, light work there (Helm, cue, KubeVela's controller, the OAM e2e suite): their own
# packages compiled without optimizations or inlining (-N -l). cue's 262 took 32 CPU-seconds against 41 (22% less,
# the standard library cached, 2026-11-29); a cold CI compiles about 3,500 such packages, and a test waits on the bed,
# not on their code. The standard library stays optimized, as every other build here compiles it, so it is compiled
# once. Call before build_with_progress.
unoptimized_test_tool() {
  go_gcflags=(-gcflags 'all=-dwarf=false -N -l' -gcflags 'std=-dwarf=false')
}

. "$(dirname "${BASH_SOURCE[0]}")/../scripts/cache-dir.sh"
cache_root=$zkoam_cache_dir

# The version go.mod in directory $1 requires of module $2: the one pin (go.sum pins its dependencies). The field after
# the module's path, on a `require` line of its own or in a block, so that a `// indirect` after it is not taken.
required_version() {
  awk -v m="$2" '$1 == "require" && $2 == m { print $3; exit } $1 == m && $2 != "=>" { print $2; exit }' "$1/go.mod"
}

# Sets `gobin`, or exits 3 saying what to install.
find_go() {
  gobin=$(command -v go || true)
  [ -n "$gobin" ] || { [ -x /usr/local/go/bin/go ] && gobin=/usr/local/go/bin/go; }
  [ -n "$gobin" ] || { log "Go toolchain not found: install Go >= 1.26"; exit 3; }
}

# One build at a time per output: a second caller waits for the first (then finds what it built).
hold_build_lock() {
  mkdir -p "$(dirname "$1")"
  exec 9>"$1.lock"
  if ! flock -n 9; then
    log "another build into $1 is running; waiting for it"
    flock 9
  fi
}

# go build of package $2 into $1 with ldflags $3, from the current directory's module, printing progress every 100
# packages. `go install <module>@<version>` cannot be used: it asks the proxy for the module's version list (to check
# for a deprecation), which the proxy refuses with "403 Forbidden"; building from a local module asks for no list.
build_with_progress() {
  local start total
  start=$(date +%s)
  export GOFLAGS=-mod=readonly GOTOOLCHAIN=local
  total=$("$gobin" list -deps "$2" | wc -l)
  "$gobin" build -v -trimpath "${go_gcflags[@]}" -ldflags "$3" -o "$1" "$2" 2>&1 | awk -v total="$total" -v start="$start" -v tag="$tag" '
    /^#/ || /: / { print > "/dev/stderr"; next }
    { n++; if (n % 100 == 0) { printf "[%s] compiled %d of ~%d packages (%ds)\n", tag, n, total, systime() - start > "/dev/stderr"; fflush("/dev/stderr") } }'
  [ -x "$1" ] || { log "build failed: $1 missing"; exit 1; }
}

# Finds or starts the cached build of $module at the version $here/go.mod pins: sets `version`, and does what
# begin_build_into does with $cache_root/$1/$2-$version and $3.
begin_cached_build() {
  version=$(required_version "$here" "$module")
  [ -n "$version" ] || { log "no version of $module found in $here/go.mod"; exit 1; }
  begin_build_into "$cache_root/$1/$2-$version" "${3:-}"
}

# Finds or starts the cached build into directory $1: sets `out` to it. When the caller's `built` says it is complete,
# prints $out/$2 (or $out, without $2) and exits. Otherwise, when the caller set `only_if_cached=true`, exits 1; or finds
# Go, takes the build lock (a second caller waits, then finds what the first built), and leaves an empty $out.partial to
# build into, from $here, with `start` set.
begin_build_into() {
  out=$1
  result="$out${2:+/$2}"
  built && { echo "$result"; exit 0; }
  [ "${only_if_cached:-false}" = false ] || exit 1
  find_go
  hold_build_lock "$out"
  built && { echo "$result"; exit 0; }
  rm -rf "$out.partial"
  mkdir -p "$out.partial"
  start=$(date +%s)
  cd "$here"
}

# Moves the finished build into place, says how long it took (and $1, if given), and prints what begin_build_into
# promised.
finish_cached_build() {
  rm -rf "$out"
  mv "$out.partial" "$out"
  log "built in $(( $(date +%s) - start ))s${1:+: $1}"
  echo "$result"
}

# What the module cache knows of $module at $version (JSON: its source directory, the commit its tag names).
module_info() {
  GOTOOLCHAIN=local "$gobin" mod download -json "$module@$version"
}

# The source directory of $module at $version, from the module cache.
module_source_dir() {
  local dir
  dir=$(module_info | sed -n 's/^\t"Dir": "\(.*\)",\{0,1\}$/\1/p')
  [ -d "$dir" ] || { log "go mod download gave no source directory for $module@$version"; exit 1; }
  echo "$dir"
}

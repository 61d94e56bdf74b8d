#!/bin/bash
# release-lib.sh VERSION CLASSPATH LIB: fills the official layout look-alike's lib/ with the jars Debian's classpath
# reaches, each once, following the jars' manifests (Class-Path) as the JVM does, since lib/* is all the release
# layout's classpath holds. Debian's logging binding (slf4j-simple) gives way to logback, the release's.
set -euo pipefail
version=$1 classpath=$2 lib=$3
[[ -f "/usr/share/maven-repo/org/apache/zookeeper/zookeeper/${version}/zookeeper-${version}.jar" ]] ||
  { echo "release-lib.sh: Debian's ZooKeeper is not ${version}" >&2; exit 1; }

# The Class-Path entries of a jar's manifest, one a line. Debian's JRE holds the jar tool's module, not its launcher.
manifest_class_path() {
  local dir
  dir=$(mktemp -d)
  (cd "$dir" && java -m jdk.jartool/sun.tools.jar.Main xf "$1" META-INF/MANIFEST.MF)
  if [[ -f "$dir/META-INF/MANIFEST.MF" ]]; then
    # A manifest wraps its lines at 72 bytes; a continuation line starts with a space.
    tr -d '\r' <"$dir/META-INF/MANIFEST.MF" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n //g' | sed -n 's/^Class-Path: *//p' | tr ' ' '\n'
  fi
  rm -rf "$dir"
}

mkdir -p "$lib"
IFS=: read -ra queue <<<"$classpath"
queue+=(/usr/share/java/logback-classic.jar /usr/share/java/logback-core.jar)
declare -A seen=()
while ((${#queue[@]} > 0)); do
  jar=${queue[0]}
  queue=("${queue[@]:1}")
  [[ "$jar" == *.jar && "$jar" != */slf4j-simple.jar && -z "${seen[$jar]:-}" ]] || continue
  seen[$jar]=1
  # The JVM skips a manifest's entry that names no file; so does the copy.
  [[ -f "$jar" ]] || continue
  cp -L "$jar" "$lib/$(basename "$(readlink -f "$jar")")"
  for entry in $(manifest_class_path "$jar"); do
    [[ "$entry" == /* ]] || entry="$(dirname "$jar")/${entry}"
    queue+=("$entry")
  done
done
echo "release-lib.sh: $(ls "$lib" | wc -l) jars in ${lib}"

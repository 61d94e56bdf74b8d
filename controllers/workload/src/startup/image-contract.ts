// The ZooKeeper image contract: start.sh finds java, ZooKeeper's classpath and a writable data directory in the image
// (and volume) it runs in, never from the image's tag: a tag may be `3.9`, a `-jre-17` variant, a mirror's or a digest.
import type { ZookeeperImageLayouts } from '@zk-oam/apis';

/**
 * The part of start.sh that checks the image contract: it sets `java_bin` and `zookeeper_classpath`, or prints one line
 * naming everything it looked for and exits 1. Uses bash builtins only. Rules, first match wins:
 * - java: `java` on PATH, else `$JAVA_HOME/bin/java`;
 * - classpath: `$ZOOKEEPER_CLASSPATH`; else the configuration directory and `<home>/lib/*` of the first release
 *   directory with jars, home being `$ZOOKEEPER_HOME`, the directory above the `bin/zkServer.sh` on PATH, or one of
 *   `layouts.releaseHomes` (the configuration directory: `$ZOOCFGDIR`, else `<home>/conf`, or `layouts.releaseConfDir`
 *   for those); else Debian's package;
 * - the data directory `$ZK_DATA_DIR` (the member's volume) exists and is writable.
 */
export function imageContractScript(layouts: ZookeeperImageLayouts): string {
  const [debianJar] = layouts.debianClasspath;
  return `# The image contract (docs/getting-started.md, "Using your own ZooKeeper image"): found in the image, never from its tag.
image_contract_broken() { echo "zk-oam start: $*" >&2; exit 1; }

if ! java_bin=$(type -P java); then
  [[ -n "\${JAVA_HOME:-}" && -x "\${JAVA_HOME}/bin/java" ]] ||
    image_contract_broken "no java in this image: none on PATH (\${PATH:-empty}) and no \\$JAVA_HOME/bin/java (JAVA_HOME=\${JAVA_HOME:-unset})"
  java_bin="\${JAVA_HOME}/bin/java"
fi

# Sets zookeeper_classpath from a ZooKeeper release directory ($1): its configuration directory (logging setup: ZOOCFGDIR,
# else $2), then its jars.
release_classpath() {
  local home="$1" jars=("$1"/lib/*.jar) conf_dir
  [[ -f "\${jars[0]}" ]] || return 1
  conf_dir="\${ZOOCFGDIR:-$2}"
  zookeeper_classpath="\${home}/lib/*"
  if [[ -d "$conf_dir" ]]; then zookeeper_classpath="\${conf_dir}:\${zookeeper_classpath}"; fi
}

# Sets zookeeper_classpath and zookeeper_found (which rule matched), or fails.
find_zookeeper() {
  local server home
  if [[ -n "\${ZOOKEEPER_CLASSPATH:-}" ]]; then
    zookeeper_classpath="$ZOOKEEPER_CLASSPATH"
    zookeeper_found="ZOOKEEPER_CLASSPATH"
    return
  fi
  if [[ -n "\${ZOOKEEPER_HOME:-}" ]] && release_classpath "$ZOOKEEPER_HOME" "\${ZOOKEEPER_HOME}/conf"; then
    zookeeper_found="ZOOKEEPER_HOME \${ZOOKEEPER_HOME}"
    return
  fi
  if server=$(type -P zkServer.sh); then
    home="\${server%/bin/zkServer.sh}"
    if release_classpath "$home" "\${home}/conf"; then
      zookeeper_found="the release directory of \${server} on PATH"
      return
    fi
  fi
  for home in ${layouts.releaseHomes}; do
    if release_classpath "$home" "${layouts.releaseConfDir}"; then
      zookeeper_found="the release directory \${home}"
      return
    fi
  done
  if [[ -f "${debianJar}" ]]; then
    zookeeper_classpath="${layouts.debianClasspath.join(':')}"
    zookeeper_found="Debian's zookeeper package"
    return
  fi
  image_contract_broken "no ZooKeeper in this image: ZOOKEEPER_CLASSPATH is not set, no lib/*.jar in ZOOKEEPER_HOME (\${ZOOKEEPER_HOME:-unset}), beside a bin/zkServer.sh on PATH (\${PATH:-empty}) or in ${layouts.releaseHomes}, and no ${debianJar} (Debian's zookeeper package)"
}
find_zookeeper

[[ -d "$ZK_DATA_DIR" && -w "$ZK_DATA_DIR" ]] ||
  image_contract_broken "the data directory \${ZK_DATA_DIR} (the member's volume) is missing or not writable by uid \${EUID}"
`;
}

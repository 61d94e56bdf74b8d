// start.sh: the member startup logic (the image contract, myid, zoo.cfg copy, choice of the dynamic configuration), as rendered into the ConfigMap.
import { MYID_OFFSET, SASL_SECRET_KEYS, TLS_SECRET_KEYS, ZOOKEEPER_IMAGE_LAYOUTS, ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { SASL_DIR_ENV } from '../sasl/jaas-secret.js';
import { KEY_STORE_FILE } from '../tls/member-config.js';
import { CLIENT_CA_DIR_ENV } from '../tls/x509/client-ca-config.js';
import { FOUR_LETTER_WORD_ENV } from './four-letter-word-env.js';
import { imageContractScript } from './image-contract.js';

const { port: PORT_ENV, tls: TLS_ENV, tlsDir: TLS_DIR_ENV, keyStoreDir: KEY_STORE_DIR_ENV, plainClientPort: PLAIN_PORT_ENV } = FOUR_LETTER_WORD_ENV;

// Its wait for a member to answer is bash's own backoff (sleep, in the member's container before any Node runs), so it
// stays outside the runtime's retry kit.
export const START_SCRIPT = `#!/bin/bash
# ZooKeeper member startup, rendered by zk-oam. Finds java and ZooKeeper in the image, writes myid, copies zoo.cfg to
# the data volume and picks the dynamic configuration so that a reused volume or a new member never breaks the
# ensemble; then execs the server.
# Logs one line per decision. Paths come from env vars (ZK_DATA_DIR, ZK_CONFIG_DIR), never literals.
set -euo pipefail

# Decisions go to the original stdout (fd 9), also from inside command substitutions.
exec 9>&1
log() { echo "zk-oam start: $*" >&9; }

${imageContractScript(ZOOKEEPER_IMAGE_LAYOUTS)}
log "ZooKeeper from \${zookeeper_found}: classpath \${zookeeper_classpath}, java \${java_bin}"

ordinal="\${POD_NAME##*-}"
myid=$((ordinal + ${MYID_OFFSET}))
self="\${POD_NAME}.\${ZK_DOMAIN}"
initial="\${ZK_CONFIG_DIR}/dynamic.initial.cfg"
data_dir="\${ZK_DATA_DIR}/data"
conf_dir="\${ZK_DATA_DIR}/conf"
chosen="\${conf_dir}/zoo.cfg.dynamic.chosen"
retry_max_seconds="\${ZK_START_RETRY_MAX_SECONDS:-30}"
# Where peers answer four-letter words: the plain client port, or the secure one over TLS (ZooKeeper's client then
# trusts the CA of the mounted TLS Secret and checks the peer's name in its certificate).
four_letter_word_port="\${${PORT_ENV}:-${ZOOKEEPER_PORTS.client}}"
four_letter_word_java=()
four_letter_word_secure=()
if [[ "\${${TLS_ENV}:-false}" == true ]]; then
  four_letter_word_java=("-Dzookeeper.ssl.trustStore.location=\${${TLS_DIR_ENV}}/${TLS_SECRET_KEYS.ca}" -Dzookeeper.ssl.trustStore.type=PEM)
  four_letter_word_secure=(true)
fi
# This member's client part in a server line: none without a plain client port (TLS only).
plain_client_port="\${${PLAIN_PORT_ENV}-${ZOOKEEPER_PORTS.client}}"
client_part=""
if [[ -n "$plain_client_port" ]]; then client_part=";\${self}:\${plain_client_port}"; fi

mkdir -p "$data_dir" "$conf_dir"
echo "$myid" > "\${data_dir}/myid"
log "member \${POD_NAME} is server.\${myid} at \${self}"

# ZooKeeper's PEM key store is one file, key then certificate; the Secret (the controller's or cert-manager's) holds
# them apart. Written at every start, so a restart picks up a renewed certificate; readable by this user only.
if [[ -n "\${${KEY_STORE_DIR_ENV}:-}" ]]; then
  # The blank line keeps the two PEM blocks apart when the key lacks a final newline.
  (umask 077 && { cat "\${${TLS_DIR_ENV}}/${TLS_SECRET_KEYS.privateKey}"; echo; cat "\${${TLS_DIR_ENV}}/${TLS_SECRET_KEYS.certificate}"; } > "\${${KEY_STORE_DIR_ENV}}/${KEY_STORE_FILE}")
  log "wrote the key store from the member certificate in \${${TLS_DIR_ENV}}"
fi

# ZooKeeper rewrites the zoo.cfg it runs with, and tunables may have changed: start from the rendered one every time.
sed -e "s|@DATA_DIR@|\${ZK_DATA_DIR}|g" -e "s|@POD_IP@|\${POD_IP}|g" -e "s|@TLS_DIR@|\${${TLS_DIR_ENV}:-}|g" \
  -e "s|@KEY_STORE_DIR@|\${${KEY_STORE_DIR_ENV}:-}|g" -e "s|@CLIENT_CA_DIR@|\${${CLIENT_CA_DIR_ENV}:-}|g" \
  "\${ZK_CONFIG_DIR}/zoo.cfg" > "\${conf_dir}/zoo.cfg"

server_lines() { grep -E '^server\\.[0-9]+=' || true; }

# The newest zoo.cfg.dynamic.<hex version> ZooKeeper committed on this volume, if any.
newest_committed() {
  local file version newest="" newest_version=-1
  for file in "\${conf_dir}"/zoo.cfg.dynamic.*; do
    version="\${file##*.}"
    [[ -f "$file" && "$version" =~ ^[0-9a-f]+$ ]] || continue
    if (( 16#$version > newest_version )); then
      newest="$file"
      newest_version=$((16#$version))
    fi
  done
  [[ -n "$newest" ]] || return 1
  echo "$newest"
}

# Hosts of every member named by the initial configuration or the newest one on the volume, except this one.
peers() {
  local committed
  {
    server_lines < "$initial"
    if committed=$(newest_committed); then server_lines < "$committed"; fi
  } | sed -E 's/^server\\.[0-9]+=([^:]+):.*$/\\1/' | sort -u | grep -vxF "$self" || true
}

# Server lines of the configuration a running member serves with; fails if none answers. The version line "conf" prints
# stays out: ZooKeeper refuses a dynamic file with a version inside (the version of a committed file is its name's suffix).
# Asked with ZooKeeper's own client: the JVM resolves pod names where bash cannot.
current_config() {
  local peer answer
  for peer in $(peers); do
    if answer=$("$java_bin" "\${four_letter_word_java[@]}" -cp "$zookeeper_classpath" org.apache.zookeeper.client.FourLetterWordMain \
      "$peer" "$four_letter_word_port" conf "\${four_letter_word_secure[@]}" 2>/dev/null) &&
      grep -qE '^server\\.[0-9]+=' <<<"$answer"; then
      log "asked \${peer} for conf: it serves a configuration"
      server_lines <<<"$answer"
      return 0
    fi
    log "asked \${peer} for conf: no configuration in its answer"
  done
  return 1
}

attempt=0
while true; do
  if current=$(current_config); then
    if grep -qE "^server\\.\${myid}=" <<<"$current"; then
      log "decision: server.\${myid} is in the configuration the ensemble runs with; starting with it as is"
      printf '%s\\n' "$current" > "$chosen"
    else
      # Without a version the leader's configuration supersedes this one, so the member stays non-voting until a
      # reconfig adds it.
      log "decision: server.\${myid} is not in the configuration the ensemble runs with; joining as a non-voting observer"
      { server_lines <<<"$current"; echo "server.\${myid}=\${self}:${ZOOKEEPER_PORTS.quorum}:${ZOOKEEPER_PORTS.election}:observer\${client_part}"; } > "$chosen"
    fi
    break
  fi
  if committed=$(newest_committed); then
    log "decision: no member answers; starting with the newest committed configuration on the volume, \${committed##*/}"
    cp "$committed" "$chosen"
    break
  fi
  if grep -qE "^server\\.\${myid}=" "$initial"; then
    log "decision: no member answers and the volume is empty; bootstrapping with the initial configuration"
    cp "$initial" "$chosen"
    break
  fi
  attempt=$((attempt + 1))
  delay=$(( 2 ** (attempt < 6 ? attempt : 6) ))
  delay=$(( delay < retry_max_seconds ? delay : retry_max_seconds ))
  log "decision: wait; no member answers, the volume is empty and server.\${myid} is not an initial member, so it must not bootstrap a separate ensemble; retrying in \${delay}s"
  sleep "$delay"
done

# One JVM option per line, so an option may contain spaces.
jvm_flags=()
if [[ -n "\${ZK_JVM_FLAGS:-}" ]]; then readarray -t jvm_flags <<<"$ZK_JVM_FLAGS"; fi
# SASL users: the JAAS file of the mounted Secret. Passwords stay in that file, never in the environment or a command line.
if [[ -n "\${${SASL_DIR_ENV}:-}" ]]; then jvm_flags+=("-Djava.security.auth.login.config=\${${SASL_DIR_ENV}}/${SASL_SECRET_KEYS.jaas}"); fi
log "starting ZooKeeper with $(grep -cE '^server\\.' "$chosen") members in its dynamic configuration"
exec "$java_bin" "\${jvm_flags[@]}" "-Dzookeeper.DigestAuthenticationProvider.superDigest=\${ZK_SUPER_DIGEST}" \\
  -cp "$zookeeper_classpath" org.apache.zookeeper.server.quorum.QuorumPeerMain "\${conf_dir}/zoo.cfg"
`;

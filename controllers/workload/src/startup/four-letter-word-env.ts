// The environment the member scripts read to ask four-letter words, and the bash that asks the member itself: the
// plain client port, or TLS on the secure port (TLS-only ensembles) trusting the CA in the mounted member TLS Secret.
import { TLS_SECRET_KEYS, ZOOKEEPER_PORTS } from '@zk-oam/apis';

/** Env vars the container sets when spec.tls uses TLS (render/container.ts); unset, the scripts use the plain port. */
export const FOUR_LETTER_WORD_ENV = {
  /** The port four-letter words are asked on. */
  port: 'ZK_FOUR_LETTER_WORD_PORT',
  /** `true` when that port speaks TLS. */
  tls: 'ZK_FOUR_LETTER_WORD_TLS',
  /** The member TLS Secret's mount path (a path in an env var, so that the test bed can map it). */
  tlsDir: 'ZK_TLS_DIR',
  /** Where start.sh writes ZooKeeper's PEM key store (key then certificate) from the mounted Secret. */
  keyStoreDir: 'ZK_KEY_STORE_DIR',
  /** The plain client port of the member's server line; empty when it has none (TLS only). */
  plainClientPort: 'ZK_PLAIN_CLIENT_PORT',
} as const;

/**
 * `ask_own_member WORD` sets ANSWER to this member's answer to a four-letter word. The probes run it every few seconds
 * in every member, so the plain port is asked with bash's own /dev/tcp and `read`: no process is started for it (each
 * one is an exec in the container). bash cannot speak TLS, so the secure port is asked through `openssl s_client` (its
 * -quiet keeps the connection open until the server closes it).
 */
export const ASK_OWN_MEMBER = `ask_own_member() {
  ANSWER=
  if [[ "\${${FOUR_LETTER_WORD_ENV.tls}:-false}" == true ]]; then
    ANSWER=$(printf '%s' "$1" | timeout 3 openssl s_client -quiet -verify_return_error -connect "\${POD_IP}:\${${FOUR_LETTER_WORD_ENV.port}:-${ZOOKEEPER_PORTS.client}}" \\
      -CAfile "\${${FOUR_LETTER_WORD_ENV.tlsDir}}/${TLS_SECRET_KEYS.ca}" 2>/dev/null)
    return
  fi
  exec 3<>"/dev/tcp/\${POD_IP}/\${${FOUR_LETTER_WORD_ENV.port}:-${ZOOKEEPER_PORTS.client}}" || return 1
  printf '%s' "$1" >&3
  local line
  while IFS= read -r -t 3 line <&3; do ANSWER+="\${line}"$'\\n'; done
  ANSWER+="\${line}"
  exec 3<&-
}`;

// ready.sh and alive.sh, the members' probes as rendered into the ConfigMap: each asks its own member a four-letter
// word on the pod IP (ASK_OWN_MEMBER), so neither needs DNS.
import { ASK_OWN_MEMBER } from './four-letter-word-env.js';

/** Readiness: srvr on the pod IP reports leader, follower or observer. */
export const READY_SCRIPT = `#!/bin/bash
# Readiness, rendered by zk-oam: ready once this server answers srvr on its own pod IP as leader, follower or observer
# (in the quorum, not merely running). Uses the pod IP, so it needs no DNS.
set -uo pipefail
${ASK_OWN_MEMBER}
ask_own_member srvr
mode=
mode_line=$'(^|\\n)Mode: ([a-z]+)'
[[ "$ANSWER" =~ $mode_line ]] && mode=\${BASH_REMATCH[2]}
if [[ ! "$mode" =~ ^(leader|follower|observer)$ ]]; then
  echo "not ready: mode '\${mode:-unknown}'"
  exit 1
fi
`;

/** Liveness: ruok on the pod IP answers imok. */
export const ALIVE_SCRIPT = `#!/bin/bash
# Liveness, rendered by zk-oam: alive while the server answers ruok with imok on its pod IP (whether or not in quorum).
set -uo pipefail
${ASK_OWN_MEMBER}
ask_own_member ruok
[[ "$ANSWER" == imok ]]
`;

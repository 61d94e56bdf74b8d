// ready.sh: the readiness probe (srvr on the pod IP reports leader, follower or observer), as rendered into the ConfigMap.
import { ASK_OWN_MEMBER } from './four-letter-word-env.js';

export const READY_SCRIPT = `#!/bin/bash
# Readiness, rendered by zk-oam: ready once this server answers srvr on its own pod IP as leader, follower or observer
# (in the quorum, not merely running). Uses the pod IP, so it needs no DNS.
set -uo pipefail
${ASK_OWN_MEMBER}
mode=$(ask_own_member srvr | sed -n 's/^Mode: //p')
if [[ ! "$mode" =~ ^(leader|follower|observer)$ ]]; then
  echo "not ready: mode '\${mode:-unknown}'"
  exit 1
fi
`;

// alive.sh: the liveness probe (ruok on the pod IP answers imok), as rendered into the ConfigMap.
import { ASK_OWN_MEMBER } from './four-letter-word-env.js';

export const ALIVE_SCRIPT = `#!/bin/bash
# Liveness, rendered by zk-oam: alive while the server answers ruok with imok on its pod IP (whether or not in quorum).
set -uo pipefail
${ASK_OWN_MEMBER}
[[ "$(ask_own_member ruok)" == imok ]]
`;

// alive.sh: the liveness probe (ruok on the pod IP answers imok), as rendered into the ConfigMap.
import { ZOOKEEPER_PORTS } from '@zk-oam/apis';

export const ALIVE_SCRIPT = `#!/bin/bash
# Liveness, rendered by zk-oam: alive while the server answers ruok with imok on its pod IP (whether or not in quorum).
set -uo pipefail
exec 3<>"/dev/tcp/\${POD_IP}/${ZOOKEEPER_PORTS.client}" || exit 1
printf ruok >&3
[[ "$(timeout 3 cat <&3)" == imok ]]
`;

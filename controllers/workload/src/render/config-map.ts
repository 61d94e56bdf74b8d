// ConfigMap `<name>-config`: zoo.cfg, the initial dynamic configuration, and the startup and probe scripts.
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { QuorumTlsStep, ZookeeperWorkload } from '@zk-oam/apis';
import { ALIVE_SCRIPT, READY_SCRIPT } from '../startup/probe-scripts.js';
import { START_SCRIPT } from '../startup/start-script.js';
import { childMetadata, workloadNames } from './identity.js';
import { buildInitialDynamicConfig } from './initial-dynamic-config.js';
import { CONFIG_FILES } from './layout.js';
import { buildZooCfg } from './zoo-cfg.js';

export function buildConfigMap(workload: ZookeeperWorkload, initialMembers: number, quorumTls: QuorumTlsStep): V1ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: childMetadata(workload, workloadNames(workload).configMap),
    data: {
      [CONFIG_FILES.zooCfg]: buildZooCfg(workload.spec, quorumTls),
      [CONFIG_FILES.initialDynamicConfig]: buildInitialDynamicConfig(workload, initialMembers),
      [CONFIG_FILES.start]: START_SCRIPT,
      [CONFIG_FILES.ready]: READY_SCRIPT,
      [CONFIG_FILES.alive]: ALIVE_SCRIPT,
    },
  };
}

// The static zoo.cfg of every member: tunables, reconfig and auth settings, metrics, TLS, SASL, x509; membership lives in the dynamic file.
import type { AuthenticationSpec, QuorumTlsStep, ZookeeperWorkloadSpec } from '@zk-oam/apis';
import { tlsConfigEntries } from '../tls/member-config.js';
import { ZOO_CFG_PLACEHOLDERS } from './layout.js';

/**
 * The four-letter words a member answers, and no more (invariant 7):
 * srvr for readiness and roles, mntr for the observer's sync and latency figures, conf for start.sh to learn the
 * membership the ensemble runs with, ruok for liveness.
 */
export const FOUR_LETTER_WORD_WHITELIST = ['srvr', 'mntr', 'conf', 'ruok'] as const;

const { dataDir, podIP } = ZOO_CFG_PLACEHOLDERS;

/**
 * The zoo.cfg text, the quorum's TLS at the given step; start.sh fills in the placeholders for the data volume path
 * and the pod IP.
 */
export function buildZooCfg(spec: ZookeeperWorkloadSpec, quorumTls: QuorumTlsStep): string {
  const { config, metrics } = spec;
  const entries: [string, string | number | undefined][] = [
    ['tickTime', config.tickTime],
    ['initLimit', config.initLimit],
    ['syncLimit', config.syncLimit],
    ['maxClientCnxns', config.maxClientCnxns],
    ['minSessionTimeout', config.minSessionTimeout],
    ['maxSessionTimeout', config.maxSessionTimeout],
    ['autopurge.snapRetainCount', config.autopurge.snapRetainCount],
    ['autopurge.purgeInterval', config.autopurge.purgeInterval],
    ['dataDir', `${dataDir}/data`],
    // start.sh writes the chosen membership here; ZooKeeper then keeps versioned copies beside it.
    ['dynamicConfigFile', `${dataDir}/conf/zoo.cfg.dynamic.chosen`],
    ['reconfigEnabled', 'true'],
    // A one-member ensemble must still run the distributed stack, or it could never grow.
    ['standaloneEnabled', 'false'],
    // Quorum and election ports bind to the member's own server line address: pods may share a network namespace.
    ['quorumListenOnAllIPs', 'false'],
    ['4lw.commands.whitelist', FOUR_LETTER_WORD_WHITELIST.join(',')],
    // The admin server would bind 0.0.0.0:8080 and duplicates what the four-letter words give.
    ['admin.enableServer', 'false'],
    ...metricsEntries(metrics),
    ...tlsConfigEntries(spec, quorumTls),
    ...authProviderEntries(spec),
    ...Object.entries(config.additionalConfig ?? {}).sort(([a], [b]) => a.localeCompare(b)),
  ];
  const lines = entries.filter((entry): entry is [string, string | number] => entry[1] !== undefined).map(([key, value]) => `${key}=${value}`);
  return `${lines.join('\n')}\n`;
}

/**
 * ZooKeeper's provider for each method of spec.authentication, registered as authProvider.<scheme>: clients then
 * authenticate as sasl:<user> or x509:<certificate subject>.
 */
const AUTH_PROVIDERS: readonly (readonly [keyof AuthenticationSpec, string])[] = [
  ['sasl', 'org.apache.zookeeper.server.auth.SASLAuthenticationProvider'],
  ['x509', 'org.apache.zookeeper.server.auth.X509AuthenticationProvider'],
];

function authProviderEntries({ authentication }: ZookeeperWorkloadSpec): [string, string][] {
  return AUTH_PROVIDERS.filter(([scheme]) => authentication?.[scheme] !== undefined).map(([scheme, provider]) => [`authProvider.${scheme}`, provider]);
}

function metricsEntries(metrics: ZookeeperWorkloadSpec['metrics']): [string, string | number][] {
  if (!metrics.enabled) {
    return [];
  }
  return [
    ['metricsProvider.className', 'org.apache.zookeeper.metrics.prometheus.PrometheusMetricsProvider'],
    ['metricsProvider.httpHost', podIP],
    ['metricsProvider.httpPort', metrics.port],
  ];
}

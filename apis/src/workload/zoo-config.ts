// zoo.cfg tunables with bounds and defaults, and a free map for the rest minus the keys the operator manages.
import { z } from 'zod';
import { maxProperties, withCel } from '../common/structural.js';

/** zoo.cfg keys the operator writes itself; setting them by hand would break membership, auth or storage. */
export const MANAGED_CONFIG_KEYS = [
  'dataDir',
  'dataLogDir',
  'dynamicConfigFile',
  'reconfigEnabled',
  'standaloneEnabled',
  'skipACL',
  '4lw.commands.whitelist',
  'clientPort',
  'secureClientPort',
  'secureClientPortAddress',
  'serverCnxnFactory',
  'sslQuorum',
  'clientPortAddress',
  'quorumListenOnAllIPs',
  'sessionRequireClientSASLAuth',
  'tickTime',
  'initLimit',
  'syncLimit',
  'maxClientCnxns',
  'minSessionTimeout',
  'maxSessionTimeout',
  'autopurge.snapRetainCount',
  'autopurge.purgeInterval',
] as const;

/**
 * Key prefixes the operator manages: membership lines, the metrics provider, TLS (spec.tls, with ssl.clientAuth and
 * the client trust store of spec.authentication.x509), authentication (spec.authentication, the superuser digest).
 * ZooKeeper sets an unknown zoo.cfg key as the system property `zookeeper.<key>`, over the JVM's own: that is how these
 * reach the server, how a second superDigest would replace the one reconfig authenticates with, and how
 * X509AuthenticationProvider.superUser would make a client certificate a superuser behind spec.authentication's back.
 */
export const MANAGED_CONFIG_KEY_PREFIXES = [
  'server.',
  'metricsProvider.',
  'ssl.',
  'authProvider.',
  'enforce.auth.',
  'DigestAuthenticationProvider.',
  'X509AuthenticationProvider.',
] as const;

const CONFIG_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

function isManagedKey(key: string): boolean {
  return (
    (MANAGED_CONFIG_KEYS as readonly string[]).includes(key) ||
    MANAGED_CONFIG_KEY_PREFIXES.some((prefix) => key.startsWith(prefix))
  );
}

const celList = (values: readonly string[]): string => `[${values.map((value) => `'${value}'`).join(', ')}]`;

export const additionalConfigSchema = withCel(
  maxProperties(
    z.record(z.string(), z.string().max(4096).regex(/^[^\r\n]*$/, 'expected a single line')),
    64,
  )
    .superRefine((config, context) => {
      for (const key of Object.keys(config)) {
        if (!CONFIG_KEY_PATTERN.test(key)) {
          context.addIssue({ code: 'custom', path: [key], input: key, message: 'expected a zoo.cfg key of letters, digits, ".", "_" or "-"' });
        } else if (isManagedKey(key)) {
          context.addIssue({ code: 'custom', path: [key], input: key, message: 'expected a key the operator does not manage' });
        }
      }
    })
    .describe(
      'Extra zoo.cfg lines (key: value). Keys the operator manages (membership, dataDir, reconfig, auth, ' +
        'four-letter words, the typed tunables above) are rejected.',
    ),
  {
    rule: `self.all(k, !(k in ${celList(MANAGED_CONFIG_KEYS)}) && ${MANAGED_CONFIG_KEY_PREFIXES.map((prefix) => `!k.startsWith('${prefix}')`).join(' && ')})`,
    message: `may not set keys managed by the operator: ${MANAGED_CONFIG_KEYS.join(', ')}, ${MANAGED_CONFIG_KEY_PREFIXES.map((prefix) => `${prefix}*`).join(', ')}`,
  },
  {
    rule: `self.all(k, k.matches('${CONFIG_KEY_PATTERN.source}'))`,
    message: 'keys must be zoo.cfg keys of letters, digits, ".", "_" or "-"',
  },
);

const autopurgeSchema = z
  .object({
    snapRetainCount: z.int().min(3).max(1000).default(3).describe('Snapshots (and their logs) kept by autopurge.'),
    purgeInterval: z.int().min(0).max(8760).default(1).describe('Hours between purges; 0 disables autopurge.'),
  })
  .describe('Automatic removal of old snapshots and transaction logs.');

export const zooConfigSchema = withCel(
  z
    .object({
      tickTime: z.int().min(100).max(60_000).default(2000).describe('Basic time unit in milliseconds.'),
      initLimit: z.int().min(1).max(1000).default(10).describe('Ticks a follower may take to connect and sync to the leader.'),
      syncLimit: z.int().min(1).max(1000).default(5).describe('Ticks a follower may lag behind the leader.'),
      maxClientCnxns: z.int().min(0).max(100_000).default(60).describe('Connections per client IP; 0 means unlimited.'),
      minSessionTimeout: z.int().min(1).max(3_600_000).optional().describe('Milliseconds; default 2 x tickTime.'),
      maxSessionTimeout: z.int().min(1).max(3_600_000).optional().describe('Milliseconds; default 20 x tickTime.'),
      autopurge: autopurgeSchema.prefault({}),
      additionalConfig: additionalConfigSchema.optional(),
    })
    .superRefine((config, context) => {
      if (
        config.minSessionTimeout !== undefined &&
        config.maxSessionTimeout !== undefined &&
        config.minSessionTimeout > config.maxSessionTimeout
      ) {
        context.addIssue({
          code: 'custom',
          path: ['minSessionTimeout'],
          input: config.minSessionTimeout,
          message: `expected at most maxSessionTimeout ${config.maxSessionTimeout}`,
        });
      }
    })
    .describe('zoo.cfg tunables.'),
  {
    rule: '!has(self.minSessionTimeout) || !has(self.maxSessionTimeout) || self.minSessionTimeout <= self.maxSessionTimeout',
    message: 'minSessionTimeout may not exceed maxSessionTimeout',
    fieldPath: '.minSessionTimeout',
  },
);
export type ZooConfig = z.infer<typeof zooConfigSchema>;

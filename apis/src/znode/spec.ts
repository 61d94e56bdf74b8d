// spec and status of a ZookeeperZnode: the workload it lives in, its path (chosen or generated) and what happens to
// the path when the object goes.
import { z } from 'zod';
import { conditionsSchema, observedGenerationSchema } from '../common/conditions.js';
import { DNS_LABEL_PATTERN, dnsSubdomainSchema } from '../common/object-meta.js';
import { withCel } from '../common/structural.js';
import { workloadRefSchema } from '../common/workload-ref.js';

/** ZooKeeper's own subtree (`/zookeeper/config`, `/zookeeper/quota`): never a tenant's. */
export const RESERVED_ZNODE_ROOT = '/zookeeper';

/**
 * An absolute path of one or more segments; a segment starts with a letter, digit or "_" (so never "." or ".."), then
 * letters, digits, ".", "_" or "-". No trailing slash, no empty segment.
 */
export const ZNODE_PATH_PATTERN = /^(\/[A-Za-z0-9_][A-Za-z0-9._-]{0,63})+$/;
export const MAX_ZNODE_PATH_LENGTH = 255;

/** Whether `path` is ZooKeeper's reserved subtree or inside it. */
export function isReservedZnodePath(path: string): boolean {
  return path === RESERVED_ZNODE_ROOT || path.startsWith(`${RESERVED_ZNODE_ROOT}/`);
}

export const znodePathSchema = withCel(
  z
    .string()
    .max(MAX_ZNODE_PATH_LENGTH)
    .regex(ZNODE_PATH_PATTERN, 'expected an absolute path such as /kafka/prod: segments of letters, digits, ".", "_" or "-", none starting with "." or "-"')
    .refine((path) => !isReservedZnodePath(path), { message: `${RESERVED_ZNODE_ROOT} is ZooKeeper's own subtree` })
    .describe(
      'Absolute ZooKeeper path the tenant gets, e.g. /kafka/prod; missing parents are created. Segments of letters, digits, ' +
        '".", "_" or "-", none starting with "." or "-" (so never "." or ".."); not under /zookeeper. Without it the ' +
        'controller picks /znode-<uid>. Immutable.',
    ),
  { rule: `self != '${RESERVED_ZNODE_ROOT}' && !self.startsWith('${RESERVED_ZNODE_ROOT}/')`, message: `${RESERVED_ZNODE_ROOT} is ZooKeeper's own subtree` },
);

/**
 * The workload a znode lives in: a trait's workloadRef, and a namespace, since a tenant often runs apart from the
 * ensemble. The workload must admit the znode's namespace (its spec.znodes.namespaceSelector) unless it is its own.
 */
export const znodeWorkloadRefSchema = withCel(
  workloadRefSchema
    .extend({
      name: dnsSubdomainSchema.describe('Name of the ZookeeperWorkload.'),
      namespace: z
        .string()
        .max(63)
        .regex(DNS_LABEL_PATTERN, 'expected a namespace name')
        .optional()
        .describe(
          "Namespace of the ZookeeperWorkload; the znode's own when absent. Another namespace's workload serves the znode only if " +
            "its spec.znodes.namespaceSelector selects the znode's namespace.",
        ),
    })
    .describe('The ZookeeperWorkload the znode lives in: in the same namespace, or in another that admits it. Immutable.'),
  { rule: 'self == oldSelf', message: 'workloadRef is immutable; delete and recreate the object to retarget it' },
);

/** Where the znode's workload lives: spec.workloadRef.namespace, or the znode's own namespace. */
export function znodeWorkloadKey(znode: { metadata: { namespace?: string | undefined }; spec: { workloadRef: { name: string; namespace?: string | undefined } } }): {
  namespace: string;
  name: string;
} {
  return { namespace: znode.spec.workloadRef.namespace ?? znode.metadata.namespace ?? '', name: znode.spec.workloadRef.name };
}

/**
 * A certificate subject as ZooKeeper's x509 provider names a client: RFC 2253, the most specific attribute first
 * (`CN=kafka,O=example`), as `openssl x509 -noout -subject -nameopt RFC2253` prints it. The ACL id is
 * `x509:<subject>`, compared as a whole string.
 */
export const X509_SUBJECT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9.-]*=[^\n\r]+$/;

export const znodePrincipalSchema = z
  .object({
    x509: z
      .object({
        subject: z
          .string()
          .max(1024)
          .regex(X509_SUBJECT_PATTERN, 'expected a certificate subject in RFC 2253 form, such as CN=kafka,O=example')
          .describe(
            'Subject of the client certificate the tenant presents, in RFC 2253 form with the most specific attribute first ' +
              '(`openssl x509 -noout -subject -nameopt RFC2253` prints it), e.g. CN=kafka,O=example. The path\'s ACL lets ' +
              'x509:<subject> alone in. The certificate is the user\'s to issue with the workload\'s client CA.',
          ),
      })
      .describe('A client certificate\'s subject: needs a workload with spec.authentication.x509.'),
  })
  .describe(
    'The tenant\'s own principal, when the user brings it. Absent on a workload with SASL: the controller makes a SASL user. ' +
      'A workload that authenticates clients by x509 alone needs one.',
  );
export type ZnodePrincipal = z.infer<typeof znodePrincipalSchema>;

export const ZNODE_RECLAIM_POLICIES = ['Delete', 'Retain'] as const;
export type ZnodeReclaimPolicy = (typeof ZNODE_RECLAIM_POLICIES)[number];

export const znodeSpecSchema = withCel(
  z
    .object({
      workloadRef: znodeWorkloadRefSchema,
      path: znodePathSchema.optional(),
      principal: znodePrincipalSchema.optional(),
      reclaimPolicy: z
        .enum(ZNODE_RECLAIM_POLICIES)
        .default('Delete')
        .describe('What happens to the path and its data when the ZookeeperZnode is deleted: Delete removes the path recursively, Retain keeps it.'),
    })
    .describe('A tenant of an ensemble: its path, its own principal where the workload authenticates clients, and its discovery ConfigMap and Secret.'),
  {
    rule: 'has(self.path) == has(oldSelf.path) && (!has(self.path) || self.path == oldSelf.path)',
    message: 'path is immutable; create another ZookeeperZnode for another path',
    fieldPath: '.path',
  },
);
export type ZookeeperZnodeSpec = z.infer<typeof znodeSpecSchema>;

export const znodeStatusSchema = z
  .object({
    observedGeneration: observedGenerationSchema.optional(),
    path: z.string().max(MAX_ZNODE_PATH_LENGTH).optional().describe('The path of the tenant, chosen or generated; kept for the object\'s life.'),
    exists: z.boolean().optional().describe('Whether the path existed at the last look.'),
    connectString: z.string().optional().describe('What clients connect with: the client Service, its port, and the path as chroot.'),
    principal: z
      .string()
      .optional()
      .describe('The ACL id of the tenant\'s own principal: sasl:<user> made by the controller, or x509:<subject> from spec.principal.'),
    conditions: conditionsSchema.optional(),
  })
  .describe('The path, whether it exists, how to reach it, and the Ready and Synced conditions.');
export type ZookeeperZnodeStatus = z.infer<typeof znodeStatusSchema>;

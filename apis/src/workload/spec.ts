// spec of a ZookeeperWorkload: what ensemble a person asks for.
import { ZOOKEEPER_PORTS } from './contract.js';
import { z } from 'zod';
import { dnsSubdomainSchema } from '../common/object-meta.js';
import { compareQuantities, quantitySchema } from '../common/quantity.js';
import { maxProperties, withCel } from '../common/structural.js';
import { RESTORE_FROM_AT_CREATION_RULE, restoreFromSchema } from './restore.js';
import { placementSchema, podSecurityContextSchema } from './placement.js';
import { jvmSchema, resourcesSchema } from './resources.js';
import { authenticationSchema, type AuthenticationSpec } from './authentication.js';
import { tlsSchema, type TlsSpec } from './tls.js';
import { zooConfigSchema } from './zoo-config.js';
import { workloadZnodesSchema } from './znodes.js';

export const imageSchema = z
  .object({
    repository: z.string().min(1).max(512).default('zookeeper').describe('Image repository.'),
    tag: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, 'expected an image tag')
      .default('3.9.4')
      .describe('Image tag of ZooKeeper 3.5.3 or later (for dynamic reconfiguration); any form: ZooKeeper is found in the image, not from the tag.'),
    digest: z
      .string()
      .regex(/^sha256:[a-f0-9]{64}$/, 'expected sha256:<64 hex digits>')
      .optional()
      .describe('Pins the image by digest; the tag then only documents the version.'),
    pullPolicy: z.enum(['Always', 'IfNotPresent', 'Never']).default('IfNotPresent'),
    pullSecrets: z.array(z.object({ name: dnsSubdomainSchema })).max(16).optional(),
  })
  .describe('The ZooKeeper container image.');

export const storageSchema = z
  .object({
    size: quantitySchema.default('1Gi').describe('Size of each member\'s data volume.'),
    storageClassName: z.string().max(253).optional().describe('StorageClass of the data volumes; the cluster default when absent.'),
    reclaimPolicy: z
      .enum(['Retain', 'Delete'])
      .default('Retain')
      .describe('What happens to the data volumes when the workload is deleted.'),
  })
  .describe('Persistent data of each member (snapshots, transaction logs, dynamic config).');

export const metricsSchema = z
  .object({
    enabled: z
      .boolean()
      .default(false)
      .describe('Enable ZooKeeper\'s Prometheus metrics provider (the image must ship it); ServiceMonitor and PrometheusRule follow when their CRDs exist.'),
    port: z.int().min(1024).max(65_535).default(7000),
  })
  .describe('Prometheus metrics.');

export const clientServiceSchema = z
  .object({
    type: z.enum(['ClusterIP', 'NodePort', 'LoadBalancer']).default('ClusterIP'),
    port: z
      .int()
      .min(1)
      .max(65_535)
      .default(ZOOKEEPER_PORTS.client)
      .describe('Service port of the plain client port; with tls.client Only, of the secure one (with Alongside the secure one is 2281).'),
    annotations: maxProperties(z.record(z.string(), z.string()), 64).optional(),
  })
  .describe('The Service clients connect to.');

/** Every key of the users Secret becomes a SASL user: another Secret's keys (password, tls.key) would too. */
const USERS_SECRET_MESSAGE = 'authentication.sasl.usersSecretRef must name a Secret of its own, not the superuser or the CA Secret';

/** A client presents its certificate in the TLS handshake: only the secure client port has one. */
const X509_NEEDS_TLS_MESSAGE = 'authentication.x509 needs tls.client Alongside or Only: clients present their certificate on the secure port';

/** What spec.authentication needs from the rest of the spec: a users Secret of its own, a secure port for certificates. */
function refineAuthentication(
  spec: { authentication?: AuthenticationSpec | undefined; superuserSecretRef?: { name: string } | undefined; tls: TlsSpec },
  context: z.RefinementCtx,
): void {
  const usersSecret = spec.authentication?.sasl?.usersSecretRef.name;
  if (usersSecret !== undefined && [spec.superuserSecretRef?.name, spec.tls.certificates?.caSecretRef?.name].includes(usersSecret)) {
    context.addIssue({ code: 'custom', path: ['authentication', 'sasl', 'usersSecretRef', 'name'], input: usersSecret, message: USERS_SECRET_MESSAGE });
  }
  if (spec.authentication?.x509 !== undefined && spec.tls.client === 'Disabled') {
    context.addIssue({ code: 'custom', path: ['authentication', 'x509'], input: spec.authentication.x509, message: X509_NEEDS_TLS_MESSAGE });
  }
}

export const workloadSpecSchema = withCel(
  z
    .object({
      image: imageSchema.prefault({}),
      replicas: z
        .int()
        .min(1)
        .max(31)
        .default(3)
        .describe('Number of members. Odd sizes are recommended: 3 tolerates one failure, 5 two. Owned by a bound ZookeeperScale.'),
      resources: resourcesSchema.optional(),
      jvm: jvmSchema.optional(),
      storage: storageSchema.prefault({}),
      config: zooConfigSchema.prefault({}),
      metrics: metricsSchema.prefault({}),
      placement: placementSchema.prefault({}),
      podSecurityContext: podSecurityContextSchema.optional(),
      clientService: clientServiceSchema.prefault({}),
      superuserSecretRef: z
        .object({ name: dnsSubdomainSchema })
        .optional()
        .describe('Secret holding the ZooKeeper superuser credentials used for reconfig. Created by the operator when absent.'),
      tls: tlsSchema.prefault({}),
      authentication: authenticationSchema.optional(),
      znodes: workloadZnodesSchema.optional(),
      restoreFrom: restoreFromSchema.optional(),
    })
    .superRefine((spec, context) => {
      refineAuthentication(spec, context);
      const heap = spec.jvm?.heap;
      const memoryLimit = spec.resources?.limits?.memory;
      if (heap !== undefined && memoryLimit !== undefined && compareQuantities(heap, memoryLimit) >= 0) {
        context.addIssue({
          code: 'custom',
          path: ['jvm', 'heap'],
          input: heap,
          message: `expected below the memory limit ${String(memoryLimit)}`,
        });
      }
    })
    .describe('The desired ensemble.'),
  {
    rule:
      '!has(self.jvm) || !has(self.jvm.heap) || !has(self.resources) || !has(self.resources.limits) || ' +
      '!has(self.resources.limits.memory) || ' +
      'quantity(string(self.jvm.heap)).compareTo(quantity(string(self.resources.limits.memory))) < 0',
    message: 'the JVM heap must be below the memory limit',
    fieldPath: '.jvm.heap',
  },
  {
    rule:
      '!has(self.authentication) || !has(self.authentication.sasl) || ' +
      '((!has(self.superuserSecretRef) || self.superuserSecretRef.name != self.authentication.sasl.usersSecretRef.name) && ' +
      '(!has(self.tls) || !has(self.tls.certificates) || !has(self.tls.certificates.caSecretRef) || ' +
      'self.tls.certificates.caSecretRef.name != self.authentication.sasl.usersSecretRef.name))',
    message: USERS_SECRET_MESSAGE,
    fieldPath: '.authentication.sasl.usersSecretRef.name',
  },
  {
    rule:
      '!has(self.authentication) || !has(self.authentication.x509) || ' +
      "(has(self.tls) && has(self.tls.client) && self.tls.client != 'Disabled')",
    message: X509_NEEDS_TLS_MESSAGE,
    fieldPath: '.authentication.x509',
  },
  RESTORE_FROM_AT_CREATION_RULE,
);
export type ZookeeperWorkloadSpec = z.infer<typeof workloadSpecSchema>;
/** A spec as a person writes it: defaults not yet applied. */
export type ZookeeperWorkloadSpecInput = z.input<typeof workloadSpecSchema>;

// spec.tls of a ZookeeperWorkload: encryption of member-to-member and client traffic, and the certificates it uses.
import { z } from 'zod';
import { dnsSubdomainSchema } from '../common/object-meta.js';
import { withCel } from '../common/structural.js';

/** How clients reach the members: plain text only (today's behaviour), TLS beside plain text, or TLS only. */
export const CLIENT_TLS_MODES = ['Disabled', 'Alongside', 'Only'] as const;
export type ClientTlsMode = (typeof CLIENT_TLS_MODES)[number];

/** Keys of a CA Secret named by spec.tls.certificates.caSecretRef: the type kubernetes.io/tls layout. */
export const CA_SECRET_KEYS = { certificate: 'tls.crt', privateKey: 'tls.key' } as const;

/** The kinds of cert-manager issuer a Certificate can name. */
export const ISSUER_KINDS = ['Issuer', 'ClusterIssuer'] as const;

/** cert-manager's API group: of its Certificate, and the default group of the issuer a Certificate names. */
export const CERT_MANAGER_GROUP = 'cert-manager.io';

export const issuerRefSchema = z
  .object({
    name: dnsSubdomainSchema.describe('Name of the issuer.'),
    kind: z.enum(ISSUER_KINDS).default('Issuer').describe('Issuer (in the workload\'s namespace) or ClusterIssuer.'),
    group: z.string().min(1).max(253).default(CERT_MANAGER_GROUP).describe('API group of the issuer; another group names an external issuer.'),
  })
  .describe(
    'A cert-manager issuer that signs the member certificate: the controller requests a cert-manager Certificate instead of ' +
      'keeping a CA of its own. Needs cert-manager\'s CRDs in the cluster.',
  );
export type IssuerRef = z.infer<typeof issuerRefSchema>;

/** A year: the lifetime of a member certificate unless spec.tls.certificates.validityHours says otherwise. */
export const DEFAULT_VALIDITY_HOURS = 8_760;

/** A certificate renewed no earlier than it was issued would be issued again at every look. */
const RENEW_BEFORE_MESSAGE = 'tls.certificates.renewBeforeMinutes must be less than the validity, validityHours × 60 minutes';

export const certificatesSchema = withCel(
  z
    .object({
      validityHours: z
        .int()
        .min(1)
        .max(87_600)
        .default(DEFAULT_VALIDITY_HOURS)
        .describe(
          'Lifetime of the member certificate, in hours; it is issued again when renewBeforeMinutes (by default a third of ' +
            'it) is left. A change applies to the next certificate issued. With issuerRef: the Certificate\'s duration.',
        ),
      renewBeforeMinutes: z
        .int()
        .min(1)
        .optional()
        .describe(
          'How long before its expiry the member certificate is issued again, in minutes; less than the validity. Absent: ' +
            'a third of the certificate\'s lifetime. A change applies to the certificate in use: it is issued again at ' +
            'once if the new time has passed. With issuerRef: the Certificate\'s renewBefore.',
        ),
      caSecretRef: z
        .object({ name: dnsSubdomainSchema })
        .optional()
        .describe(
          `Secret (keys ${CA_SECRET_KEYS.certificate} and ${CA_SECRET_KEYS.privateKey}, PEM) holding the CA that signs the member ` +
            'certificate. Absent: the controller creates a CA of its own in `<name>-tls-ca` and keeps it with the workload.',
        ),
      issuerRef: issuerRefSchema.optional(),
    })
    .superRefine((certificates, context) => {
      if (certificates.caSecretRef !== undefined && certificates.issuerRef !== undefined) {
        context.addIssue({ code: 'custom', path: ['issuerRef'], input: certificates.issuerRef, message: 'expected caSecretRef or issuerRef, not both' });
      }
      const lifetimeMinutes = certificates.validityHours * 60;
      if (certificates.renewBeforeMinutes !== undefined && certificates.renewBeforeMinutes >= lifetimeMinutes) {
        context.addIssue({
          code: 'custom',
          path: ['renewBeforeMinutes'],
          input: certificates.renewBeforeMinutes,
          message: `expected less than validityHours × 60 (${String(lifetimeMinutes)} minutes)`,
        });
      }
    })
    .describe('Certificates of the members: issued and renewed by the workload controller, or by cert-manager (issuerRef).'),
  { rule: '!(has(self.caSecretRef) && has(self.issuerRef))', message: 'tls.certificates takes caSecretRef or issuerRef, not both', fieldPath: '.issuerRef' },
  // The apiserver applies defaults before CEL, so validityHours is always there, 8760 when the user left it out.
  { rule: '!has(self.renewBeforeMinutes) || self.renewBeforeMinutes < self.validityHours * 60', message: RENEW_BEFORE_MESSAGE, fieldPath: '.renewBeforeMinutes' },
);

/**
 * How members talk to each other, step by step. A serving ensemble moves from plain text to TLS in three rolling
 * restarts (ZooKeeper's own procedure): first every member also accepts TLS, then every member connects with TLS while
 * still accepting plain text from those not restarted yet, then plain text is refused. Any two members can talk at
 * every point of the move, so the quorum holds while one member at a time restarts.
 */
export const QUORUM_TLS_STEPS = ['Plain', 'PlainAcceptingTls', 'TlsAcceptingPlain', 'Tls'] as const;
export type QuorumTlsStep = (typeof QUORUM_TLS_STEPS)[number];

/** The step a workload's quorum traffic ends at, once every restart of a move is done. */
export function finalQuorumTlsStep(tls: Pick<TlsSpec, 'quorum'>): QuorumTlsStep {
  return tls.quorum ? 'Tls' : 'Plain';
}

/**
 * Moving between the controller's CA and cert-manager's issuer swaps the CA members trust: restarted one by one, the
 * restarted members could not reach the others. A workload that uses no TLS yet trusts no CA, so it may name either.
 */
const ISSUER_IMMUTABLE_MESSAGE =
  'tls.certificates.issuerRef cannot be set or removed once the workload uses TLS: create a new workload to move to or from cert-manager';

/**
 * Turning TLS on is a move the controller carries out while the ensemble serves (quorum: three rolling restarts; client:
 * the secure port opens beside the plain one). The way back, and dropping the plain client port, are not built:
 * ZooKeeper 3.8 needs a client address in every server line a reconfig adds, which a member without a plain port has not.
 */
const ONE_WAY_MESSAGE =
  'tls.quorum can be turned on but not off, and tls.client can only go from Disabled to Alongside: ' +
  'create a new workload to turn TLS off or to drop the plain client port';

/** CEL: whether the object (self or oldSelf) uses TLS; absent keys read as their defaults. */
const celUsesTls = (object: 'self' | 'oldSelf'): string =>
  `((has(${object}.quorum) && ${object}.quorum) || (has(${object}.client) && ${object}.client != 'Disabled'))`;
const celClient = (object: 'self' | 'oldSelf'): string => `(has(${object}.client) ? ${object}.client : 'Disabled')`;

export const tlsSchema = withCel(
  z
    .object({
      quorum: z
        .boolean()
        .default(false)
        .describe('Encrypt member-to-member traffic (quorum and election ports) with TLS; members authenticate each other by certificate.'),
      client: z
        .enum(CLIENT_TLS_MODES)
        .default('Disabled')
        .describe(
          'Client traffic: Disabled (plain port only), Alongside (plain and secure port), Only (secure port only). ' +
            'Clients are asked for a certificate only with authentication.x509.',
        ),
      certificates: certificatesSchema.optional(),
    })
    .superRefine((tls, context) => {
      if (tls.certificates !== undefined && !usesTls(tls)) {
        context.addIssue({ code: 'custom', path: ['certificates'], input: tls.certificates, message: 'expected tls.quorum or tls.client to use TLS' });
      }
    })
    .describe(
      'TLS for member-to-member and client traffic. Turning it on for a serving ensemble restarts the members up to three times, ' +
        'one at a time (status.quorumTls shows the step); it cannot be turned off.',
    ),
  // The apiserver checks these rules against the field's default, {}, too: absent keys are read as their defaults.
  {
    rule: `!has(self.certificates) || ${celUsesTls('self')}`,
    message: 'tls.certificates needs tls.quorum or tls.client to use TLS',
    fieldPath: '.certificates',
  },
  {
    rule:
      '(!(has(oldSelf.quorum) && oldSelf.quorum) || (has(self.quorum) && self.quorum)) && ' +
      `(${celClient('self')} == ${celClient('oldSelf')} || (${celClient('oldSelf')} == 'Disabled' && ${celClient('self')} == 'Alongside'))`,
    message: ONE_WAY_MESSAGE,
  },
  {
    rule:
      `!${celUsesTls('oldSelf')} || ` +
      '(has(self.certificates) && has(self.certificates.issuerRef)) == (has(oldSelf.certificates) && has(oldSelf.certificates.issuerRef))',
    message: ISSUER_IMMUTABLE_MESSAGE,
  },
);
export type TlsSpec = z.infer<typeof tlsSchema>;

/** Whether any traffic of the workload uses TLS, so that certificates are needed. */
export function usesTls(tls: Pick<TlsSpec, 'quorum' | 'client'>): boolean {
  return tls.quorum || tls.client !== 'Disabled';
}

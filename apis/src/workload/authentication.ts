// spec.authentication of a ZookeeperWorkload: how clients prove who they are. Absent: no client authentication.
import { z } from 'zod';
import { dnsSubdomainSchema } from '../common/object-meta.js';
import { withCel } from '../common/structural.js';

export const saslSchema = z
  .object({
    usersSecretRef: z
      .object({ name: dnsSubdomainSchema })
      .describe(
        'Secret of the users clients may authenticate as with SASL DIGEST-MD5: each key a user name (letters, digits, ".", "_", "-"), ' +
          'its value that user\'s password (printable, without double quotes or backslashes). A change restarts the members.',
      ),
  })
  .describe('SASL DIGEST-MD5: clients authenticate with a user name and password; ACLs name them as sasl:<user>.');

/** Keys of the Secret named by spec.authentication.x509.clientCaSecretRef. */
export const CLIENT_CA_SECRET_KEYS = { ca: 'ca.crt' } as const;

export const x509Schema = z
  .object({
    clientCaSecretRef: z
      .object({ name: dnsSubdomainSchema })
      .describe(
        `Secret whose key ${CLIENT_CA_SECRET_KEYS.ca} holds the CA certificate(s), PEM, that sign client certificates; no private key. ` +
          'A change restarts the members.',
      ),
  })
  .describe(
    'Mutual TLS (ZooKeeper\'s x509 provider): a client presenting a certificate signed by the client CA on the secure port ' +
      'is authenticated as its subject name; ACLs name it as x509:<subject> (e.g. x509:CN=alice,O=example). Needs tls.client ' +
      'Alongside or Only.',
  );

export const authenticationSchema = withCel(
  z
    .object({ sasl: saslSchema.optional(), x509: x509Schema.optional() })
    .superRefine((authentication, context) => {
      if (authentication.sasl === undefined && authentication.x509 === undefined) {
        context.addIssue({ code: 'custom', path: ['sasl'], input: authentication, message: 'expected an authentication method: sasl, x509, or both' });
      }
    })
    .describe(
      'Client authentication. Sessions that do not authenticate are still accepted: znodes are protected by their ACLs ' +
        '(e.g. sasl:<user>:cdrwa, x509:<subject>:cdrwa), since the controllers reconfigure as the digest superuser.',
    ),
  { rule: 'has(self.sasl) || has(self.x509)', message: 'authentication needs a method: sasl, x509, or both', fieldPath: '.sasl', reason: 'FieldValueRequired' },
);
export type AuthenticationSpec = z.infer<typeof authenticationSchema>;

/** Keys of the Secret `<name>-sasl` the workload controller renders from the users Secret: the members' JAAS file. */
export const SASL_SECRET_KEYS = { jaas: 'jaas.conf' } as const;

/**
 * On the member pod template: the resourceVersion of the JAAS Secret the members started with. Members read the file
 * at start only, so a new revision restarts them, and a member whose pod carries the Secret's current resourceVersion
 * knows every user in it.
 */
export const SASL_REVISION_ANNOTATION = 'zookeeper.zkoam.dev/sasl-users-revision';

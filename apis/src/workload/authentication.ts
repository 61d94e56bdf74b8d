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

export const authenticationSchema = withCel(
  z
    .object({ sasl: saslSchema.optional() })
    .superRefine((authentication, context) => {
      if (authentication.sasl === undefined) {
        context.addIssue({ code: 'custom', path: ['sasl'], input: authentication, message: 'expected an authentication method: sasl' });
      }
    })
    .describe(
      'Client authentication. Sessions that do not authenticate are still accepted: znodes are protected by their ACLs ' +
        '(e.g. sasl:<user>:cdrwa), since the controllers reconfigure as the digest superuser.',
    ),
  { rule: 'has(self.sasl)', message: 'authentication needs a method: sasl', fieldPath: '.sasl', reason: 'FieldValueRequired' },
);
export type AuthenticationSpec = z.infer<typeof authenticationSchema>;

/** Keys of the Secret `<name>-sasl` the workload controller renders from the users Secret: the members' JAAS file. */
export const SASL_SECRET_KEYS = { jaas: 'jaas.conf' } as const;

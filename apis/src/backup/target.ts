// spec.target of a ZookeeperBackup: where the backups go, one of two: an S3-compatible object store, or a
// PersistentVolumeClaim in the backup's namespace (written through a pod that mounts it for the run: the controller's
// README says how).
import { z } from 'zod';
import { dnsSubdomainSchema } from '../common/object-meta.js';
import { withCel } from '../common/structural.js';

/** Keys of the credentials Secret, unless the target names others: the names the AWS tools use. */
export const S3_CREDENTIAL_KEYS = { accessKeyId: 'AWS_ACCESS_KEY_ID', secretAccessKey: 'AWS_SECRET_ACCESS_KEY' } as const;
/** Key of the CA Secret, unless the target names another. */
export const S3_CA_KEY = 'ca.crt';

/** A bucket name as S3 accepts one: 3 to 63 lowercase letters, digits, "." and "-", starting and ending alphanumeric. */
export const S3_BUCKET_PATTERN = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** An endpoint: http or https, a host (and port), an optional path. */
export const S3_ENDPOINT_PATTERN = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;
/** A key prefix: path segments of letters, digits, ".", "_" and "-", no leading, trailing or doubled "/". */
export const S3_PREFIX_PATTERN = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

export const s3TargetSchema = z
  .object({
    endpoint: z
      .string()
      .max(2048)
      .regex(S3_ENDPOINT_PATTERN, 'expected an http:// or https:// URL')
      .describe('URL of the S3-compatible endpoint, e.g. https://s3.eu-west-1.amazonaws.com or http://seaweedfs.storage:8333.'),
    region: z.string().min(1).max(64).default('us-east-1').describe('The region requests are signed for; most S3-compatible servers accept any.'),
    bucket: z.string().regex(S3_BUCKET_PATTERN, 'expected an S3 bucket name: 3 to 63 lowercase letters, digits, "." and "-"').describe('The bucket, which must exist.'),
    prefix: z
      .string()
      .max(512)
      .regex(S3_PREFIX_PATTERN, 'expected path segments of letters, digits, ".", "_" and "-", without a leading or trailing "/"')
      .optional()
      .describe('Key prefix under which backups go: <prefix>/<namespace>/<workload>/<backup id>/. Without it, from the bucket\'s root.'),
    forcePathStyle: z
      .boolean()
      .default(true)
      .describe('Address the bucket in the path (endpoint/bucket/key), as most S3-compatible servers want; false for virtual-hosted style (bucket.endpoint).'),
    credentialsSecretRef: z
      .object({
        name: dnsSubdomainSchema,
        accessKeyIdKey: z.string().min(1).max(253).default(S3_CREDENTIAL_KEYS.accessKeyId),
        secretAccessKeyKey: z.string().min(1).max(253).default(S3_CREDENTIAL_KEYS.secretAccessKey),
      })
      .describe(`Secret in the backup's namespace holding the access key (key ${S3_CREDENTIAL_KEYS.accessKeyId} unless named) and secret key (${S3_CREDENTIAL_KEYS.secretAccessKey}).`),
    caSecretRef: z
      .object({ name: dnsSubdomainSchema, key: z.string().min(1).max(253).default(S3_CA_KEY) })
      .optional()
      .describe(`Secret whose key (${S3_CA_KEY} unless named) holds the CA certificate(s), PEM, the endpoint's certificate chains to; without it, the system's.`),
  })
  .describe('An S3-compatible object store.');
export type S3Target = z.infer<typeof s3TargetSchema>;

export const pvcTargetSchema = z
  .object({
    claimName: dnsSubdomainSchema.describe("The PersistentVolumeClaim, in the backup's namespace; it must exist, and be mountable while a run writes to it."),
    prefix: z
      .string()
      .max(512)
      .regex(S3_PREFIX_PATTERN, 'expected path segments of letters, digits, ".", "_" and "-", without a leading or trailing "/"')
      .optional()
      .describe('Directory in the volume under which backups go: <prefix>/<namespace>/<workload>/<backup id>/. Without it, from the volume\'s root.'),
  })
  .describe('A PersistentVolumeClaim, mounted for each run by a pod the controller starts from its own image.');
export type PvcTarget = z.infer<typeof pvcTargetSchema>;

export const backupTargetSchema = withCel(
  z
    .object({ s3: s3TargetSchema.optional(), pvc: pvcTargetSchema.optional() })
    .refine((target) => (target.s3 === undefined) !== (target.pvc === undefined), { message: 'target needs exactly one of s3 and pvc' })
    .describe('Where backups go: an S3-compatible object store, or a PersistentVolumeClaim; exactly one.'),
  { rule: 'has(self.s3) != has(self.pvc)', message: 'target needs exactly one of s3 and pvc' },
);
export type BackupTarget = z.infer<typeof backupTargetSchema>;

/** The target's one kind, told apart. */
export type TargetKind = { readonly kind: 's3'; readonly s3: S3Target } | { readonly kind: 'pvc'; readonly pvc: PvcTarget };

export function targetKind(target: BackupTarget): TargetKind {
  if (target.s3 !== undefined) return { kind: 's3', s3: target.s3 };
  if (target.pvc !== undefined) return { kind: 'pvc', pvc: target.pvc };
  throw new Error('a target with neither s3 nor pvc passed its schema');
}

/** The key prefix the target names, either kind. */
export function targetPrefix(target: BackupTarget): string | undefined {
  return target.s3?.prefix ?? target.pvc?.prefix;
}

// The user's Secrets a workload's spec names (superuser, TLS CA, SASL users, client CA), and from a Secret back to the
// workloads that name it: they carry no label of ours, so only their metadata is watched, and a change of one enqueues
// the workloads that read it instead of waiting for a timed look.
import { keepFields, keptParse, keyOf, type KubeObject, type Lister, type ObjectKey } from '@zk-oam/runtime';
import { z } from 'zod';

const secretRefSchema = z.looseObject({ name: z.string() }).optional();

/** The four references, read leniently: a workload that does not validate names no Secret here (its reconcile says why). */
const namingSpecSchema = z.looseObject({
  spec: z.looseObject({
    superuserSecretRef: secretRefSchema,
    tls: z.looseObject({ certificates: z.looseObject({ caSecretRef: secretRefSchema }).optional() }).optional(),
    authentication: z
      .looseObject({
        sasl: z.looseObject({ usersSecretRef: secretRefSchema }).optional(),
        x509: z.looseObject({ clientCaSecretRef: secretRefSchema }).optional(),
      })
      .optional(),
  }),
});

/**
 * The names of the Secrets the workload's spec names, in its own namespace. Read once per version of a cached workload
 * (keptParse): a burst of new workloads in one namespace brings a Secret event per workload, each scanning them all.
 */
export function namedSecrets(workload: KubeObject): readonly string[] {
  return keptParse(workload, namingSpecSchema, () => {
    const spec = namingSpecSchema.safeParse(workload).data?.spec;
    if (spec === undefined) return [];
    const refs = [spec.superuserSecretRef, spec.tls?.certificates?.caSecretRef, spec.authentication?.sasl?.usersSecretRef, spec.authentication?.x509?.clientCaSecretRef];
    return refs.flatMap((ref) => (ref === undefined ? [] : [ref.name]));
  });
}

/** The workloads of the Secret's namespace whose spec names it. */
export function workloadsNamingSecret(secret: ObjectKey, workloads: readonly KubeObject[]): ObjectKey[] {
  return workloads.filter((workload) => (workload.metadata.namespace ?? '') === secret.namespace && namedSecrets(workload).includes(secret.name)).map(keyOf);
}

/** For the controller's watch on Secrets: a scan of the namespace's cached workloads (a few per namespace, no index needed). */
export function secretToNamingWorkloads(workloads: Lister<KubeObject>): (secret: KubeObject) => ObjectKey[] {
  return (secret) => workloadsNamingSecret(keyOf(secret), workloads.list({ namespace: secret.metadata.namespace ?? '' }));
}

/**
 * What the metadata-only Secret cache keeps: identity (name, namespace, resourceVersion), not the annotations, where
 * `kubectl apply` leaves a copy of the whole Secret (last-applied-configuration), data included.
 */
export const NAMED_SECRET_FIELDS = keepFields({});

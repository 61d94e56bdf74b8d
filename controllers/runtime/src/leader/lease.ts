// The coordination.k8s.io/v1 Lease as leader election reads and writes it.
import { z } from 'zod';
import { kubeObjectSchema } from '../kube/object.js';

export const leaseSchema = kubeObjectSchema.extend({
  spec: z
    .object({
      holderIdentity: z.string().nullish(),
      leaseDurationSeconds: z.number().nullish(),
      acquireTime: z.string().nullish(),
      renewTime: z.string().nullish(),
      leaseTransitions: z.number().nullish(),
    })
    .loose()
    .optional(),
});
export type Lease = z.infer<typeof leaseSchema>;
export type LeaseSpec = NonNullable<Lease['spec']>;

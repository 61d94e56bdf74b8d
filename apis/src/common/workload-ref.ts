// The reference from a trait or a znode to the ZookeeperWorkload it applies to (same namespace, fixed for the object's life).
import { z } from 'zod';
import { ZOOKEEPER_WORKLOAD } from '../workload/kind.js';
import { dnsSubdomainSchema } from './object-meta.js';
import { withCel } from './structural.js';

export const workloadRefSchema = withCel(
  z
    .object({
      apiVersion: z.literal(ZOOKEEPER_WORKLOAD.apiVersion).default(ZOOKEEPER_WORKLOAD.apiVersion),
      kind: z.literal(ZOOKEEPER_WORKLOAD.kind).default(ZOOKEEPER_WORKLOAD.kind),
      name: dnsSubdomainSchema.describe('Name of the ZookeeperWorkload in the same namespace.'),
    })
    .describe('The ZookeeperWorkload this object applies to, in the same namespace. Immutable.'),
  { rule: 'self == oldSelf', message: 'workloadRef is immutable; delete and recreate the object to retarget it' },
);
export type WorkloadRef = z.infer<typeof workloadRefSchema>;

/** Seconds one step may take before the trait reports Blocked. */
export const stepTimeoutSecondsSchema = z
  .int()
  .min(1)
  .max(86_400)
  .default(600)
  .describe('Seconds one step may take before the trait reports Blocked and waits for a person.');

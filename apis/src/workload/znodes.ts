// spec.znodes of a ZookeeperWorkload: which namespaces' ZookeeperZnodes may be tenants of the ensemble. Its own
// namespace's always may; another namespace only when this workload's owner says so by a label selector.
import { z } from 'zod';
import { labelSelectorSchema } from '../common/label-selector.js';

export const workloadZnodesSchema = z
  .object({
    namespaceSelector: labelSelectorSchema
      .optional()
      .describe(
        'Other namespaces whose ZookeeperZnodes may name this workload (spec.workloadRef.namespace), selected by their labels ' +
          '(e.g. matchLabels: {kubernetes.io/metadata.name: kafka}). Absent: the workload\'s own namespace only; {}: every namespace.',
      ),
  })
  .describe('Tenants of the ensemble: which namespaces\' ZookeeperZnodes the znode controller serves on it.');
export type WorkloadZnodesSpec = z.infer<typeof workloadZnodesSchema>;

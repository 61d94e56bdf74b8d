// The ZookeeperWorkload object as read from the API.
import type { z } from 'zod';
import { customResourceSchema } from '../common/resource.js';
import { ZOOKEEPER_WORKLOAD } from './kind.js';
import { workloadSpecSchema } from './spec.js';
import { workloadStatusSchema } from './status.js';

export const zookeeperWorkloadSchema = customResourceSchema(ZOOKEEPER_WORKLOAD, workloadSpecSchema, workloadStatusSchema);
export type ZookeeperWorkload = z.infer<typeof zookeeperWorkloadSchema>;
export type ZookeeperWorkloadInput = z.input<typeof zookeeperWorkloadSchema>;

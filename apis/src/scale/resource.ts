// The ZookeeperScale object as read from the API.
import type { z } from 'zod';
import { customResourceSchema } from '../common/resource.js';
import { ZOOKEEPER_SCALE } from './kind.js';
import { scaleSpecSchema, scaleStatusSchema } from './spec.js';

export const zookeeperScaleSchema = customResourceSchema(ZOOKEEPER_SCALE, scaleSpecSchema, scaleStatusSchema);
export type ZookeeperScale = z.infer<typeof zookeeperScaleSchema>;
export type ZookeeperScaleInput = z.input<typeof zookeeperScaleSchema>;

// The ZookeeperRolling object as read from the API.
import type { z } from 'zod';
import { customResourceSchema } from '../common/resource.js';
import { ZOOKEEPER_ROLLING } from './kind.js';
import { rollingSpecSchema, rollingStatusSchema } from './spec.js';

export const zookeeperRollingSchema = customResourceSchema(ZOOKEEPER_ROLLING, rollingSpecSchema, rollingStatusSchema);
export type ZookeeperRolling = z.infer<typeof zookeeperRollingSchema>;
export type ZookeeperRollingInput = z.input<typeof zookeeperRollingSchema>;

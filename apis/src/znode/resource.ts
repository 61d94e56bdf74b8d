// The ZookeeperZnode object as read from the API.
import type { z } from 'zod';
import { customResourceSchema } from '../common/resource.js';
import { ZOOKEEPER_ZNODE } from './kind.js';
import { znodeSpecSchema, znodeStatusSchema } from './spec.js';

export const zookeeperZnodeSchema = customResourceSchema(ZOOKEEPER_ZNODE, znodeSpecSchema, znodeStatusSchema);
export type ZookeeperZnode = z.infer<typeof zookeeperZnodeSchema>;
export type ZookeeperZnodeInput = z.input<typeof zookeeperZnodeSchema>;

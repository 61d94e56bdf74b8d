// The ZookeeperBackup object as read from the API.
import type { z } from 'zod';
import { customResourceSchema } from '../common/resource.js';
import { ZOOKEEPER_BACKUP } from './kind.js';
import { backupSpecSchema, backupStatusSchema } from './spec.js';

export const zookeeperBackupSchema = customResourceSchema(ZOOKEEPER_BACKUP, backupSpecSchema, backupStatusSchema);
export type ZookeeperBackup = z.infer<typeof zookeeperBackupSchema>;
export type ZookeeperBackupInput = z.input<typeof zookeeperBackupSchema>;

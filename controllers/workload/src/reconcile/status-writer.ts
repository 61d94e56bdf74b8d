// Where the workload's status is written: server-side apply on /status under this controller's field manager, only
// when it changed (the kit's writeStatusIfChanged), read back through the API's schema.
import { workloadStatusSchema } from '@zk-oam/apis';
import type { StatusTarget } from '@zk-oam/runtime';
import { FIELD_MANAGER } from './markers.js';
import { workloadResource } from './resource-types.js';

export const WORKLOAD_STATUS: StatusTarget<typeof workloadStatusSchema> = { resource: workloadResource, schema: workloadStatusSchema, fieldManager: FIELD_MANAGER };

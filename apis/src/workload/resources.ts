// Container resources and JVM heap of a ZooKeeper server; requests may never exceed limits.
import { z } from 'zod';
import { compareQuantities, quantitySchema } from '../common/quantity.js';
import type { CelRule } from '../common/structural.js';
import { withCel } from '../common/structural.js';

const RESOURCE_NAMES = ['cpu', 'memory'] as const;

const resourceListSchema = z.object({
  cpu: quantitySchema.optional().describe('CPU, e.g. 500m or 2.'),
  memory: quantitySchema.optional().describe('Memory, e.g. 2Gi.'),
});
export type ResourceList = z.infer<typeof resourceListSchema>;

function requestAtMostLimitRule(resource: (typeof RESOURCE_NAMES)[number]): CelRule {
  return {
    rule:
      `!has(self.requests) || !has(self.limits) || !has(self.requests.${resource}) || !has(self.limits.${resource}) || ` +
      `quantity(string(self.requests.${resource})).compareTo(quantity(string(self.limits.${resource}))) <= 0`,
    message: `${resource} request may not exceed the ${resource} limit`,
    fieldPath: `.requests.${resource}`,
  };
}

export const resourcesSchema = withCel(
  z
    .object({
      requests: resourceListSchema.optional(),
      limits: resourceListSchema.optional(),
    })
    .superRefine((resources, context) => {
      for (const resource of RESOURCE_NAMES) {
        const request = resources.requests?.[resource];
        const limit = resources.limits?.[resource];
        if (request !== undefined && limit !== undefined && compareQuantities(request, limit) > 0) {
          context.addIssue({
            code: 'custom',
            path: ['requests', resource],
            input: request,
            message: `expected at most the ${resource} limit ${String(limit)}`,
          });
        }
      }
    })
    .describe('CPU and memory for each ZooKeeper container. Requests may not exceed limits.'),
  ...RESOURCE_NAMES.map(requestAtMostLimitRule),
);
export type Resources = z.infer<typeof resourcesSchema>;

export const jvmSchema = z
  .object({
    heap: quantitySchema
      .optional()
      .describe('Java heap (-Xmx and -Xms). When absent: 75% of the memory limit, or 512Mi without a limit.'),
    extraOptions: z
      .array(z.string().max(1024))
      .max(32)
      .optional()
      .describe('Extra JVM options appended to the command line, e.g. -XX:+UseG1GC.'),
  })
  .describe('JVM settings of the ZooKeeper server.');
export type Jvm = z.infer<typeof jvmSchema>;

// Where ZooKeeper pods may run: anti-affinity between members, topology spread, node selection, tolerations.
import { z } from 'zod';
import { listMap, listSet, maxProperties, preserveUnknownFields } from '../common/structural.js';

export const ANTI_AFFINITY_MODES = ['required', 'preferred', 'none'] as const;

const topologySpreadConstraintSchema = z
  .object({
    maxSkew: z.int().min(1).max(1000).default(1),
    topologyKey: z.string().min(1).max(316).describe('Node label that defines a domain, e.g. topology.kubernetes.io/zone.'),
    whenUnsatisfiable: z.enum(['DoNotSchedule', 'ScheduleAnyway']).default('ScheduleAnyway'),
    minDomains: z.int().min(1).optional(),
    nodeAffinityPolicy: z.enum(['Honor', 'Ignore']).optional(),
    nodeTaintsPolicy: z.enum(['Honor', 'Ignore']).optional(),
  })
  .describe('A topology spread constraint; the label selector is always the ensemble\'s own.');

export const tolerationSchema = z.object({
  key: z.string().max(316).optional(),
  operator: z.enum(['Exists', 'Equal']).optional(),
  value: z.string().max(63).optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional(),
  tolerationSeconds: z.int().min(0).optional(),
});

export const placementSchema = z
  .object({
    antiAffinity: z
      .enum(ANTI_AFFINITY_MODES)
      .default('preferred')
      .describe('Keep members on different nodes: required (never share), preferred (avoid sharing) or none.'),
    topologySpreadConstraints: listMap(z.array(topologySpreadConstraintSchema).max(8), 'topologyKey', 'whenUnsatisfiable').optional(),
    nodeSelector: maxProperties(z.record(z.string(), z.string().max(63)), 32).optional(),
    tolerations: z.array(tolerationSchema).max(32).optional(),
    priorityClassName: z.string().max(253).optional(),
    affinity: preserveUnknownFields(z.record(z.string(), z.unknown()))
      .optional()
      .describe('A core/v1 Affinity merged with the anti-affinity above, for rules this API has no field for.'),
  })
  .describe('Pod placement.');
export type Placement = z.infer<typeof placementSchema>;

export const podSecurityContextSchema = z
  .object({
    runAsUser: z.int().min(0).optional(),
    runAsGroup: z.int().min(0).optional(),
    runAsNonRoot: z.boolean().optional(),
    fsGroup: z.int().min(0).optional(),
    fsGroupChangePolicy: z.enum(['OnRootMismatch', 'Always']).optional(),
    supplementalGroups: listSet(z.array(z.int().min(0)).max(32)).optional(),
    seccompProfile: z
      .object({
        type: z.enum(['RuntimeDefault', 'Unconfined', 'Localhost']),
        localhostProfile: z.string().max(4096).optional(),
      })
      .optional(),
  })
  .describe('Pod security context. When absent the pods run as uid/gid 1000, non-root, with the RuntimeDefault seccomp profile.');
export type PodSecurityContext = z.infer<typeof podSecurityContextSchema>;

// Events the workload controller publishes about an ensemble it observes.
import { z } from 'zod';
import { eventSchema } from './envelope.js';

const podName = z.string().min(1);

/** The ZooKeeper leader moved; `from`/`to` are pod names, absent when there was or is no leader. */
export const leaderChangedEventSchema = eventSchema(
  'LeaderChanged',
  z.object({ from: podName.optional(), to: podName.optional() }),
);

/** The committed ZooKeeper configuration changed (a reconfig was committed). */
export const membershipChangedEventSchema = eventSchema(
  'MembershipChanged',
  z.object({
    members: z.array(
      z.object({
        myid: z.number().int().min(1).max(255),
        pod: podName,
        role: z.enum(['participant', 'observer']),
      }),
    ),
    /** ZooKeeper's config version (hex, as `getconfig` prints it). */
    configVersion: z.string().min(1),
  }),
);

/** The ensemble's readiness or ready count changed. */
export const readinessChangedEventSchema = eventSchema(
  'ReadinessChanged',
  z.object({
    ready: z.boolean(),
    readyReplicas: z.number().int().min(0),
    replicas: z.number().int().min(0),
  }),
);

/** The pod template revision the ensemble should run changed (StatefulSet updateRevision). */
export const templateRevisionChangedEventSchema = eventSchema(
  'TemplateRevisionChanged',
  z.object({ from: z.string().min(1).optional(), to: z.string().min(1) }),
);

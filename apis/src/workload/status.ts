// status of a ZookeeperWorkload: what the workload controller observed of the ensemble.
import { z } from 'zod';
import { conditionsSchema, observedGenerationSchema } from '../common/conditions.js';
import { listMap } from '../common/structural.js';
import { restoreStatusSchema } from './restore.js';
import { QUORUM_TLS_STEPS } from './tls.js';

export const WORKLOAD_PHASES = ['Pending', 'Creating', 'Running', 'Degraded', 'Failed'] as const;
export type WorkloadPhase = (typeof WORKLOAD_PHASES)[number];

export const MEMBER_ROLES = ['leader', 'follower', 'observer', 'unknown'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const memberSchema = z.object({
  pod: z.string().describe('Pod running the member.'),
  myid: z.int().min(1).max(255).describe('ZooKeeper server id.'),
  role: z.enum(MEMBER_ROLES),
  synced: z.boolean().describe('Whether the member is in the quorum and caught up with the leader.'),
  voting: z
    .boolean()
    .optional()
    .describe('Whether the committed configuration has the member as a voting participant; false for observers and for joiners not yet reconfigured in.'),
});
export type Member = z.infer<typeof memberSchema>;

export const workloadStatusSchema = z
  .object({
    observedGeneration: observedGenerationSchema.optional(),
    phase: z
      .enum(WORKLOAD_PHASES)
      .optional()
      .describe('Pending: nothing rendered yet; Creating: first quorum not formed; Running: all members serving; Degraded: quorum holds but members are missing or out of sync; Failed: no quorum.'),
    replicas: z.int().min(0).optional().describe('Members in the committed ZooKeeper configuration.'),
    readyReplicas: z.int().min(0).optional().describe('Members serving and synced.'),
    updatedReplicas: z.int().min(0).optional().describe('Member pods on the StatefulSet\'s update revision.'),
    selector: z.string().optional().describe('Label selector of the member pods, for the scale subresource.'),
    members: listMap(z.array(memberSchema).max(255), 'pod').optional(),
    leader: z.string().optional().describe('Pod of the current leader.'),
    configVersion: z.string().max(32).optional().describe('Version of the committed dynamic configuration, in hex.'),
    currentRevision: z.string().optional().describe('StatefulSet revision of the running pods.'),
    updateRevision: z.string().optional().describe('StatefulSet revision pods are being moved to.'),
    quorumTls: z
      .enum(QUORUM_TLS_STEPS)
      .optional()
      .describe(
        'How members talk to each other, as rendered: Plain, Tls, or a step of the move to TLS: PlainAcceptingTls (members ' +
          'connect in plain text and accept both), then TlsAcceptingPlain (they connect with TLS and accept both).',
      ),
    clientEndpoint: z
      .object({
        service: z.string().describe('Name of the client Service.'),
        connectString: z.string().describe('host:port list for ZooKeeper clients.'),
      })
      .optional(),
    restore: restoreStatusSchema.optional(),
    conditions: conditionsSchema.optional(),
  })
  .describe('Observed state of the ensemble.');
export type ZookeeperWorkloadStatus = z.infer<typeof workloadStatusSchema>;

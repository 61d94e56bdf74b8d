// Every route of /api/v1: the table the server dispatches on and the OpenAPI document is made from.
import { z } from 'zod';
import { memberWithLagSchema, membersLagSchema, zxidViewSchema } from '../views/zxid-lag.js';
import type { Route } from './context.js';
import { restartEnsemble, scaleEnsemble } from './actions.js';
import { streamCluster } from './cluster-stream.js';
import { ensembleInfo, ensembleMembers, listClusters, listEnsembles } from './read.js';
import { createRequestSchema, patchRequestSchema, restartRequestSchema, scaleRequestSchema, sessionRequestSchema, updateRequestSchema } from './requests.js';
import { currentSession, endSession, startSession } from './session.js';
import { streamEnsemble } from './stream.js';
import { createEnsemble, deleteEnsemble, patchEnsemble, updateEnsemble } from './write.js';

const ENSEMBLES = '/clusters/{cluster}/namespaces/{namespace}/zookeepers';
const ENSEMBLE = `${ENSEMBLES}/{name}`;

/** What the info's answer is documented with: its members' zxid lags; its other fields are described by the summary. */
const ensembleInfoSchema = z.looseObject({ name: z.string(), namespace: z.string(), memberStatus: z.array(memberWithLagSchema), zxid: zxidViewSchema });

export const ROUTES: readonly Route[] = [
  {
    method: 'POST',
    path: '/session',
    summary: 'Sign the web page in: checks the token with the API server, answers who it is, and keeps it in an HttpOnly cookie',
    requestBody: sessionRequestSchema,
    anonymous: true,
    handle: startSession,
  },
  { method: 'GET', path: '/session', summary: 'Who the caller is, as the API server says (SelfSubjectReview)', handle: currentSession },
  { method: 'DELETE', path: '/session', summary: 'Sign the web page out: the cookie is cleared', handle: endSession },
  { method: 'GET', path: '/clusters', summary: 'The clusters served, one per kubeconfig context', handle: listClusters },
  {
    method: 'GET',
    path: '/clusters/{cluster}/zookeepers',
    summary: 'Ensembles of a cluster (?namespace=, else every namespace, else the context\'s): phase, members, leader, traits',
    handle: listEnsembles,
  },
  {
    method: 'GET',
    path: '/clusters/{cluster}/stream',
    summary:
      "Server-Sent Events: each ensemble of the list's namespaces, then each change, from a watch made as the caller; with NATS, `fact` frames: the controllers' new events about those ensembles (data: the envelope as published)",
    stream: true,
    handle: streamCluster,
  },
  { method: 'POST', path: ENSEMBLES, summary: 'Create an ensemble (a ZookeeperWorkload)', requestBody: createRequestSchema, handle: createEnsemble },
  {
    method: 'GET',
    path: ENSEMBLE,
    summary:
      "One ensemble: members (role, synced, voting, and from the workload controller's latest look over NATS each one's zxid and zxidLag, or `zxid.available: false` and why), conditions, traits, recent Events, committed config",
    responseBody: ensembleInfoSchema,
    handle: ensembleInfo,
  },
  {
    method: 'GET',
    path: `${ENSEMBLE}/members`,
    summary:
      "Each member's zxid and zxidLag behind the leader, from the workload controller's latest look over NATS (`zxid.observedAt`), or `zxid.available: false` and why; for the page to poll",
    responseBody: membersLagSchema,
    handle: ensembleMembers,
  },
  { method: 'PUT', path: ENSEMBLE, summary: 'Replace the spec (and labels, annotations)', requestBody: updateRequestSchema, handle: updateEnsemble },
  { method: 'PATCH', path: ENSEMBLE, summary: 'JSON merge patch of the spec, labels and annotations', requestBody: patchRequestSchema, handle: patchEnsemble },
  { method: 'DELETE', path: ENSEMBLE, summary: 'Delete the ensemble', handle: deleteEnsemble },
  {
    method: 'POST',
    path: `${ENSEMBLE}/scale`,
    summary: 'Scale through the ZookeeperScale trait (created if absent): one member at a time',
    requestBody: scaleRequestSchema,
    handle: scaleEnsemble,
  },
  {
    method: 'POST',
    path: `${ENSEMBLE}/restart`,
    summary: 'Restart through the ZookeeperRolling trait\'s restart trigger (created if absent): followers first, the leader last',
    requestBody: restartRequestSchema,
    handle: restartEnsemble,
  },
  {
    method: 'GET',
    path: `${ENSEMBLE}/stream`,
    summary:
      "Server-Sent Events: a snapshot, then each change of the ensemble, from a watch made as the caller; with NATS, `fact` frames: the controllers' events about it of the last hour, then new ones (data: the envelope as published)",
    stream: true,
    handle: streamEnsemble,
  },
];

// The pod status the agent reports, rendered from what it observed.
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { conditionsDiverged, renderPodStatus } from './pod-status.js';

const pod: V1Pod = { metadata: { name: 'zk-0', namespace: 'ns' }, spec: { containers: [{ name: 'zookeeper', image: 'zookeeper:3.8' }] } };
const startTime = new Date('2026-01-01T00:00:00Z');
const startedAt = new Date('2026-01-01T00:00:05Z');
const base = { podIP: '127.64.0.9', hostIP: '127.0.0.1', startTime };

describe('renderPodStatus', () => {
  it('reports a running, probed container as Ready with its pod IP, restart count, container and image', () => {
    const imageID = `zookeeper@sha256:${'a'.repeat(64)}`;
    const container = { state: { kind: 'running', startedAt }, restartCount: 2, id: 'ns_zk-0_1234abcd_2', pid: 42 } as const;
    const status = renderPodStatus(pod, { ...base, ready: true, imageID, container }, []);

    expect(status).toMatchObject({
      phase: 'Running',
      podIP: '127.64.0.9',
      podIPs: [{ ip: '127.64.0.9' }],
      hostIP: '127.0.0.1',
      startTime,
      containerStatuses: [{ name: 'zookeeper', ready: true, started: true, restartCount: 2, containerID: 'runc://ns_zk-0_1234abcd_2', imageID, state: { running: { startedAt } } }],
    });
    expect(status.conditions.map((c) => `${c.type}=${c.status}`)).toEqual(['PodScheduled=True', 'Initialized=True', 'ContainersReady=True', 'Ready=True']);
  });

  it('reports a pod whose container cannot be configured as Pending with the reason', () => {
    const status = renderPodStatus(pod, { ...base, ready: false, waitingReason: { reason: 'CreateContainerConfigError', message: 'no key' } }, []);

    expect(status.phase).toBe('Pending');
    expect(status.containerStatuses[0]?.state).toEqual({ waiting: { reason: 'CreateContainerConfigError', message: 'no key' } });
    expect(status.conditions.find((c) => c.type === 'Ready')?.status).toBe('False');
  });

  it('keeps a condition transition time while its status stays the same', () => {
    const earlier = new Date('2026-01-01T00:00:01Z');
    const status = renderPodStatus(pod, { ...base, ready: false }, [{ type: 'Ready', status: 'False', lastTransitionTime: earlier }]);

    expect(status.conditions.find((c) => c.type === 'Ready')?.lastTransitionTime).toBe(earlier);
  });
});

describe('conditionsDiverged', () => {
  const reported = [
    { type: 'ContainersReady', status: 'True', lastTransitionTime: startTime },
    { type: 'Ready', status: 'True', lastTransitionTime: startTime },
  ];

  it('is true when another writer turned a reported condition False', () => {
    expect(conditionsDiverged(reported, [reported[0] ?? { type: '', status: '' }, { type: 'Ready', status: 'False', reason: 'NodeNotReady' }])).toBe(true);
  });

  it('is true when a reported condition is missing', () => {
    expect(conditionsDiverged(reported, [{ type: 'Ready', status: 'True' }])).toBe(true);
  });

  it('is false when only transition times differ, or the apiserver has conditions the agent does not report', () => {
    const current = [...reported.map((c) => ({ ...c, lastTransitionTime: startedAt })), { type: 'DisruptionTarget', status: 'True' }];
    expect(conditionsDiverged(reported, current)).toBe(false);
  });
});

// Renders the pod status the agent reports (phase, conditions, IPs, container status) from what it observed.
import type { V1ContainerState, V1ContainerStatus, V1Pod, V1PodCondition } from '@kubernetes/client-node';
import type { ContainerSnapshot, ContainerState } from './container-process.js';

export interface ObservedPod {
  /** Undefined until the pod's network sandbox is made. */
  podIP: string | undefined;
  hostIP: string;
  startTime: Date;
  /** Undefined while volumes and env are being prepared. */
  container?: ContainerSnapshot;
  /** Why the container cannot be created yet (CreateContainerConfigError, ...). */
  waitingReason?: { reason: string; message: string };
  /** The image the container runs, by digest, once the agent has found it. */
  imageID?: string;
  ready: boolean;
}

/** The status subresource body: the whole status the agent owns, so a merge patch replaces its lists. */
export interface ReportedPodStatus {
  phase: string;
  conditions: V1PodCondition[];
  podIP?: string;
  podIPs?: { ip: string }[];
  hostIP: string;
  hostIPs: { ip: string }[];
  startTime: Date;
  containerStatuses: V1ContainerStatus[];
}

export function renderPodStatus(pod: V1Pod, observed: ObservedPod, previous: readonly V1PodCondition[]): ReportedPodStatus {
  const state = observed.container?.state ?? { kind: 'waiting', ...(observed.waitingReason ?? { reason: 'ContainerCreating', message: '' }) };
  const ready = state.kind === 'running' && observed.ready;
  const containerStatus = renderContainerStatus(pod, observed, state, ready);
  const conditions = [
    condition('PodScheduled', true, previous),
    condition('Initialized', true, previous),
    condition('ContainersReady', ready, previous),
    condition('Ready', ready, previous),
  ];
  return {
    phase: renderPhase(state, pod.spec?.restartPolicy),
    conditions,
    ...(observed.podIP === undefined ? {} : { podIP: observed.podIP, podIPs: [{ ip: observed.podIP }] }),
    hostIP: observed.hostIP,
    hostIPs: [{ ip: observed.hostIP }],
    startTime: observed.startTime,
    containerStatuses: [containerStatus],
  };
}

function renderContainerStatus(pod: V1Pod, observed: ObservedPod, state: ContainerState, ready: boolean): V1ContainerStatus {
  const first = pod.spec?.containers[0];
  const container = observed.container;
  return {
    name: first?.name ?? 'main',
    image: first?.image ?? '',
    imageID: observed.imageID ?? '',
    containerID: container?.id === undefined ? undefined : `runc://${container.id}`,
    ready,
    started: state.kind === 'running',
    restartCount: container?.restartCount ?? 0,
    state: renderState(state),
    lastState: container?.lastTerminated === undefined || state.kind === 'terminated' ? {} : renderState(container.lastTerminated),
  };
}

function renderPhase(state: ContainerState, restartPolicy: string | undefined): string {
  if (state.kind === 'running') {
    return 'Running';
  }
  if (state.kind === 'terminated' && restartPolicy === 'Never') {
    return state.exitCode === 0 ? 'Succeeded' : 'Failed';
  }
  if (state.kind === 'terminated' && restartPolicy === 'OnFailure' && state.exitCode === 0) {
    return 'Succeeded';
  }
  return state.kind === 'waiting' && state.reason !== 'CrashLoopBackOff' ? 'Pending' : 'Running';
}

function renderState(state: ContainerState): V1ContainerState {
  switch (state.kind) {
    case 'waiting':
      return { waiting: { reason: state.reason, message: state.message || undefined } };
    case 'running':
      return { running: { startedAt: state.startedAt } };
    case 'terminated':
      return {
        terminated: {
          exitCode: state.exitCode,
          signal: undefined,
          reason: state.reason,
          startedAt: state.startedAt,
          finishedAt: state.finishedAt,
        },
      };
  }
}

/** Keeps lastTransitionTime when the condition's status did not change. */
function condition(type: string, value: boolean, previous: readonly V1PodCondition[]): V1PodCondition {
  const status = value ? 'True' : 'False';
  const before = previous.find((candidate) => candidate.type === type);
  const lastTransitionTime = before?.status === status && before.lastTransitionTime !== undefined ? before.lastTransitionTime : new Date();
  return { type, status, lastTransitionTime };
}

/**
 * Whether the apiserver's conditions say something other than what the agent last reported: someone else wrote them
 * (the node lifecycle controller marks a lost node's pods not Ready). Transition times do not count.
 */
export function conditionsDiverged(reported: readonly V1PodCondition[], current: readonly V1PodCondition[]): boolean {
  return reported.some((mine) => current.find((theirs) => theirs.type === mine.type)?.status !== mine.status);
}

import type { V1Pod } from '@kubernetes/client-node';

/** The pod's Ready condition is True: what a Service and a StatefulSet roll go by. */
export function podReady(pod: V1Pod): boolean {
  return pod.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') ?? false;
}

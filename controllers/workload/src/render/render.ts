// renderWorkload: every object a workload needs, from the validated workload and the reconcile's decisions. Pure.
import type { V1ConfigMap, V1PodDisruptionBudget, V1Service, V1StatefulSet } from '@kubernetes/client-node';
import { buildClientService } from './client-service.js';
import { buildConfigMap } from './config-map.js';
import { buildHeadlessService } from './headless-service.js';
import type { RenderInput } from './input.js';
import type { PrometheusRule, ServiceMonitor } from './monitoring-types.js';
import { buildPodDisruptionBudget } from './pod-disruption-budget.js';
import { buildPrometheusRule } from './prometheus-rule.js';
import { buildServiceMonitor } from './service-monitor.js';
import { buildStatefulSet } from './stateful-set.js';

/**
 * The rendered set. The apply step maps over it with `satisfies Record<RenderedResource, ...>` (or destructures it
 * without a rest pattern), so that a resource added here and not applied there fails to compile.
 * The superuser Secret is not here: it is generated once by the reconcile (buildSuperuserSecret), never re-rendered.
 */
export interface RenderedWorkload {
  configMap: V1ConfigMap;
  headlessService: V1Service;
  clientService: V1Service;
  statefulSet: V1StatefulSet;
  podDisruptionBudget: V1PodDisruptionBudget;
  /** Present when metrics are on and the monitoring CRDs exist; absent means "delete it if it exists". */
  serviceMonitor: ServiceMonitor | undefined;
  prometheusRule: PrometheusRule | undefined;
}

/** Keys of the rendered set, one per kind of child object. */
export type RenderedResource = keyof RenderedWorkload;

export function renderWorkload(input: RenderInput): RenderedWorkload {
  const { workload, replicas, initialMembers, quorumTls, updateStrategy, monitoringCrdsPresent, certificateFingerprint, trustBundleHash, saslRevision, clientCaDigest } = input;
  const configMap = buildConfigMap(workload, initialMembers, quorumTls);
  const monitored = monitoringCrdsPresent && workload.spec.metrics.enabled;
  return {
    configMap,
    headlessService: buildHeadlessService(workload),
    clientService: buildClientService(workload, input.clientsAdmitted),
    statefulSet: buildStatefulSet({ workload, replicas, updateStrategy, configMap, certificateFingerprint, trustBundleHash, saslRevision, clientCaDigest }),
    podDisruptionBudget: buildPodDisruptionBudget(workload),
    serviceMonitor: monitored ? buildServiceMonitor(workload) : undefined,
    prometheusRule: monitored ? buildPrometheusRule(workload) : undefined,
  };
}

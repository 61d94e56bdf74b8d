// The parts of the prometheus-operator kinds (monitoring.coreos.com/v1) this controller renders; client-node has no types for them.
import type { V1LabelSelector, V1ObjectMeta } from '@kubernetes/client-node';

export const MONITORING_API_VERSION = 'monitoring.coreos.com/v1';

export interface ServiceMonitor {
  apiVersion: typeof MONITORING_API_VERSION;
  kind: 'ServiceMonitor';
  metadata: V1ObjectMeta;
  spec: {
    selector: V1LabelSelector;
    namespaceSelector: { matchNames: string[] };
    endpoints: { port: string; path: string; interval: string }[];
  };
}

export interface AlertingRule {
  alert: string;
  expr: string;
  for: string;
  labels: { severity: 'critical' | 'warning' };
  annotations: { summary: string; description: string };
}

export interface PrometheusRule {
  apiVersion: typeof MONITORING_API_VERSION;
  kind: 'PrometheusRule';
  metadata: V1ObjectMeta;
  spec: { groups: { name: string; rules: AlertingRule[] }[] };
}

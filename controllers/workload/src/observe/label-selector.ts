// A label selector as the string form the scale subresource and `kubectl get -l` use: `a=b,c in (d,e),!f`.
import type { V1LabelSelector } from '@kubernetes/client-node';

export function formatLabelSelector(selector: V1LabelSelector): string {
  const labels = Object.entries(selector.matchLabels ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`);
  const expressions = (selector.matchExpressions ?? []).map((requirement) => {
    const values = [...(requirement.values ?? [])].sort().join(',');
    switch (requirement.operator) {
      case 'In':
        return `${requirement.key} in (${values})`;
      case 'NotIn':
        return `${requirement.key} notin (${values})`;
      case 'Exists':
        return requirement.key;
      case 'DoesNotExist':
        return `!${requirement.key}`;
      default:
        return `${requirement.key} ${requirement.operator} (${values})`;
    }
  });
  return [...labels, ...expressions].join(',');
}

// The DNS names the member certificate carries: every name a member is reached by, now and after any scaling.
import { derivedNames, CLUSTER_DOMAIN } from '@zk-oam/apis';

/**
 * One certificate serves every member, so its names cover any member: a wildcard under the headless Service in each
 * form a resolver accepts (`<pod>.<headless>.<ns>.svc.cluster.local`, `.svc`, `.<ns>`), and the client Service by each
 * of its names. Scaling then never needs a new certificate.
 */
export function memberCertificateNames(workload: string, namespace: string): string[] {
  const names = derivedNames(workload);
  const forms = (service: string): string[] => [service, `${service}.${namespace}`, `${service}.${namespace}.svc`, `${service}.${namespace}.svc.${CLUSTER_DOMAIN}`];
  return [...forms(names.headlessService).slice(1).map((domain) => `*.${domain}`), ...forms(names.clientService)];
}

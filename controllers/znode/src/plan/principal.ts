// Who the tenant is to ZooKeeper (pure): a SASL user the controller makes, the subject of a client certificate the user
// brings, or nobody (an ensemble that does not authenticate clients, whose paths are open). The path's ACL names that
// principal alone; ZooKeeper lets the operator's digest superuser past every ACL without an entry.
import type { AuthenticationSpec, ZnodePrincipal } from '@zk-oam/apis';

export type TenantPrincipal =
  /** The controller makes the SASL user `znode-<uid>` and publishes its credentials. */
  | { readonly kind: 'sasl' }
  /** The user's certificate, issued by the workload's client CA; ZooKeeper names it x509:<subject>. */
  | { readonly kind: 'x509'; readonly subject: string }
  /** No client authentication: the path is open to anyone. */
  | { readonly kind: 'open' }
  /** The znode's principal does not fit the workload: nothing is made. */
  | { readonly kind: 'mismatch'; readonly message: string };

export function tenantPrincipal(workload: { readonly name: string; readonly authentication: AuthenticationSpec | undefined }, principal: ZnodePrincipal | undefined): TenantPrincipal {
  const sasl = workload.authentication?.sasl !== undefined;
  const x509 = workload.authentication?.x509 !== undefined;
  if (principal?.x509 !== undefined) {
    if (x509) return { kind: 'x509', subject: principal.x509.subject };
    return { kind: 'mismatch', message: `spec.principal.x509 names a certificate subject, but ZookeeperWorkload ${workload.name} does not authenticate clients by certificate (no spec.authentication.x509)` };
  }
  if (sasl) return { kind: 'sasl' };
  if (x509) {
    return { kind: 'mismatch', message: `ZookeeperWorkload ${workload.name} authenticates clients by certificate alone: spec.principal.x509.subject must name the subject of the tenant's certificate` };
  }
  return { kind: 'open' };
}

/** The ACL id of a principal, as ZooKeeper and the znode's status name it. */
export function principalId(principal: { readonly scheme: 'sasl' | 'x509'; readonly id: string }): string {
  return `${principal.scheme}:${principal.id}`;
}

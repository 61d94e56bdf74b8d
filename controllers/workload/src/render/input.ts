// What a render needs besides the workload: the decisions the reconcile takes from the cluster's current state.
import type { QuorumTlsStep, ZookeeperWorkload } from '@zk-oam/apis';

/** RollingUpdate lets the StatefulSet controller roll pods (leader-unaware); OnDelete leaves it to a bound rolling trait. */
export type UpdateStrategy = 'RollingUpdate' | 'OnDelete';

/** Every field but the workload is plain JSON: the reconcile keeps the applied hashes of a render under their JSON. */
export interface RenderInput {
  /** The validated workload; its uid becomes the controller owner reference of every rendered object. */
  workload: ZookeeperWorkload;
  /** StatefulSet replicas: spec.replicas at creation, afterwards the current size (membership changes go through a scale step). */
  replicas: number;
  /**
   * Size of the first configuration ever bootstrapped. Only members below it may bootstrap on an empty volume; it must
   * stay the same for the life of the workload, or a late pod could form a second ensemble.
   */
  initialMembers: number;
  /** How members talk to each other: spec.tls.quorum, or a step towards it while a serving ensemble moves to TLS. */
  quorumTls: QuorumTlsStep;
  updateStrategy: UpdateStrategy;
  /** Whether the monitoring.coreos.com ServiceMonitor and PrometheusRule CRDs exist in the cluster. */
  monitoringCrdsPresent: boolean;
  /**
   * SHA-256 fingerprint of the member certificate, when spec.tls uses TLS. It goes on the pod template: members read
   * their certificate at start, so a new one reaches them by a restart.
   */
  certificateFingerprint: string | undefined;
  /** The hash of the member Secret's ca.crt while it trusts more than one CA (a CA rotation): on the pod template too. */
  trustBundleHash: string | undefined;
  /** The resourceVersion of the JAAS Secret `<name>-sasl`, when spec.authentication uses SASL: on the pod template too. */
  saslRevision: string | undefined;
  /** The SHA-256 of the client CA's ca.crt, when spec.authentication uses x509: on the pod template too. */
  clientCaDigest: string | undefined;
  /** Whether the client Service selects the members: false until a restore (spec.restoreFrom) is done. */
  clientsAdmitted: boolean;
}

// Running our controllers on the bed: CRDs, their shipped RBAC, and the controller as a local process.
export {
  CONTROLLER_NAMESPACE,
  counterOf,
  prepareControllerLaunch,
  reconcilesRun,
  startControllerProcess,
  stopCleanly,
  waitControllerReady,
  type ControllerLaunch,
  type ControllerProcess,
  type ControllerProcessOptions,
} from './controller-process.js';
export { CustomObjects } from './custom-objects.js';
export { applyManifests, deploymentRuntimeEnv, imageNodeArgs, installControllerRbac, installCrds, installOam, readManifests, repoRoot } from './manifests.js';
export { kubectl, KubectlError } from './kubectl.js';
export { memberPodSource, PodHistory, PodTally, tallyPods, type MemberPodSource, type PodReturn, type Restart } from './pod-history.js';
export {
  auditEntriesSince,
  auditLogSize,
  bedWorkloadSpec,
  condition,
  eventsAbout,
  eventSentences,
  isReady,
  WorkloadClient,
  type AuditEntry,
  type RecordedEvent,
} from './workload-fixtures.js';
export { waitFor, waitForValue } from '../wait-for.js';
export { containerLogTails, withContainerLogs } from './container-log-tails.js';
export { useWorkloadController, type WorkloadControllerSuite } from './workload-controller-suite.js';

// The controller kit: informers, work queue, reconcile loop, leader election, apply and status helpers, metrics, event bus.
export * from './events/index.js';

export { KubeClient, KubeApiError, isApiError, isNamespaceTerminating } from './kube/client.js';
export { PooledKubeConfig } from './kube/pooled-kube-config.js';
export { coreResources, namespacedResource, apiVersionOf, resourceName, collectionPath, objectPath, type ResourceType } from './kube/resource.js';
export {
  kubeObjectSchema,
  keyOf,
  formatKey,
  parseKey,
  type KubeObject,
  type ObjectKey,
  type OwnerReference,
} from './kube/object.js';
/** Lease and events.k8s.io timestamps; client-node's typed Lease writes Date as milliseconds, which the apiserver refuses. */
export { microTime } from './kube/micro-time.js';
export { readSecretValue, SecretValueError } from './kube/secret-value.js';
export { ObjectShapeError, parseObject, parseShape } from './kube/parse-object.js';
export { keptParse } from './kube/kept-parse.js';

export { Informer, type InformerOptions } from './informer/informer.js';
export { ReflectorPool } from './informer/reflector-pool.js';
export { keepFields, keptFieldsChanged, keptFieldsChangedIn, type KeptFields, type ObjectTransform } from './informer/kept-fields.js';
export type { InformerEvent, InformerListener } from './informer/informer-event.js';
export { listersOf, type Lister, type Listers, type ListOptions } from './informer/store.js';

export type { BackoffOptions } from './queue/backoff.js';
export { DEFAULT_PERIOD_JITTER, RequeuePacer, type RequeuePacerOptions } from './queue/requeue-pacer.js';
export * from './retry/index.js';

export { controller, buildController, type ControllerBuilder, type ControllerDefinition, type WatchFilter } from './controller/builder.js';
export { Controller } from './controller/controller.js';
export { done, requeueAfter, type ReconcileResult, type Reconciler, type ReconcileContext } from './controller/reconciler.js';
export { ownerKeysOf, type OwnerKind } from './controller/owner-mapping.js';
export { ReconcileStepError, runStep, stepRunner, type StepContext, type StepRunner } from './controller/step-error.js';
export { describeFailure, reportingFailures, UNEXPECTED_FAILURE, type Failure, type FailureReportOptions } from './controller/failure-report.js';

export { applyObject, applyStatus, type ApplyOptions, type ApplyConfiguration } from './apply/server-side-apply.js';
export { jsonPatchObject, mergePatchObject, type JsonPatchOperation } from './apply/patch.js';
export { retryOnConflict } from './apply/conflict-retry.js';
export { ensureFinalizer, removeFinalizer } from './apply/finalizer.js';
export { conditionMessage, observedGeneration, setCondition, setConditions, withInvalidSpec, type ConditionContext, type ConditionVerdict } from './status/condition.js';
export { conditionNews, warningOnNews } from './status/condition-news.js';
export { sameStatus, storedStatus } from './status/stored-status.js';
export { writeStatusIfChanged, type StatusTarget } from './status/write-status.js';
export { reportStatus, type StatusReport } from './status/report-status.js';
export { WrittenStatuses } from './status/written-statuses.js';
export { EventRecorder, type EventDetails } from './recorder/event-recorder.js';

export { LeaderElector, type LeaderElectionOptions, type ElectionEnd } from './leader/leader-election.js';
export {
  ObjectLock,
  type ObjectLockOptions,
  type AcquireOptions,
  type LockResult,
  type LockState,
  type BusyLockInfo,
} from './lock/object-lock.js';
export { lockOperationAnnotation, type LockOwner } from './lock/lock-lease.js';
export { lockOutcomeOf, lostLockMessage, type LockOutcome } from './lock/lock-outcome.js';
export { ObjectLockError, type LockStep } from './lock/errors.js';
export { TraitBinding, type TraitBindingOptions, type BindResult } from './trait/trait-binding.js';
export { TraitStateMetrics, type TraitState } from './trait/trait-state-metrics.js';
export { decideBinding, type BindingDecision, type BindingProblemReason, type WorkloadReference } from './trait/binding-decision.js';
export {
  forgetTrait,
  invalidTraitVerdict,
  readTrait,
  type InvalidTraitVerdict,
  type Trait,
  type TraitCaches,
  type TraitKeeping,
  type TraitReading,
} from './trait/read-trait.js';
export type { TraitReconcilerDependencies, TraitTiming } from './trait/trait-reconciler-dependencies.js';
export type { TraitControllerNames, TraitProcessDependencies } from './trait/trait-process.js';
export { startTraitController, type TraitControllerCaches, type TraitControllerSpec, type WatchedChild } from './trait/start-trait-controller.js';
export { childToTraits, traitsOfWorkload, workloadNamedBy } from './trait/workload-traits.js';
export { traitTiming, traitTimingSettings } from './trait/trait-settings.js';
export { Manager, LeadershipLostError, type ManagerOptions, type LeaderElectionConfig } from './manager/manager.js';
export { abortOnSignals } from './manager/signals.js';
export { failureReason, runMain, type RunMainOptions } from './manager/run-main.js';
export {
  controllerModule,
  runControllerProcess,
  type ConfiguredController,
  type ControllerModule,
  type StartedController,
} from './manager/controller-module.js';
export type { OldSettingName, RenamedSetting } from './manager/renamed-settings.js';
export { CONTROLLER_LABEL, runControllerSet, type ControllerSetOptions, type NamedController } from './manager/controller-set.js';
export {
  controllerParts,
  controllerProcess,
  processRegistry,
  eventBusFrom,
  loadKubeConfig,
  millisecondsSetting,
  processEnvSchema,
  runUntilSignalled,
  type ControllerPartsOptions,
  type ControllerProcessParts,
  type NatsEnv,
  type ProcessEnv,
  type ProcessNames,
} from './manager/process.js';
export { createRuntimeMetrics, type RuntimeMetrics } from './metrics/runtime-metrics.js';
export { createLogger, type Logger, type LoggerOptions } from './logging/logger.js';

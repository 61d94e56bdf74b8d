// A Normal Event when a step of a CA rotation starts, so `kubectl describe` tells the rotation's story.
import type { KubeObject } from '@zk-oam/runtime';
import { describeCaRotation, type CaRotationStep } from '../tls/ca-rotation.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';

/** Announced by the reconcile that wrote the step into the member Secret: one Event per step. */
export async function announceCaRotationStep(deps: Pick<WorkloadReconcilerDependencies, 'recorder'>, raw: KubeObject, begun: CaRotationStep | undefined): Promise<void> {
  if (begun === undefined) return;
  const note = `Rotating the CA: the members restart into ${describeCaRotation(begun)}`;
  await deps.recorder.record(raw, { type: 'Normal', reason: 'RotatingCa', action: 'Rotate', note });
}

// The settings every trait controller reads for its timing, under one name each in all of them, and the TraitTiming
// they give. Only the idle period's default differs between traits.
import { z } from 'zod';
import { millisecondsSetting } from '../manager/process.js';
import type { TraitTiming } from './trait-reconciler-dependencies.js';

/** The timing settings of a trait controller's schema (`processEnvSchema.extend`), with its own idle period by default. */
export function traitTimingSettings(defaults: { readonly idlePeriodMs: number }): {
  STEP_PERIOD_MS: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
  IDLE_PERIOD_MS: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
  LOCK_DURATION_SECONDS: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
} {
  return {
    /** Between looks while a step is under way or awaited; must stay well below the lock's duration. */
    STEP_PERIOD_MS: millisecondsSetting(2_000),
    /** Between looks at an idle or blocked trait, jittered and paced with every other trait of the process. */
    IDLE_PERIOD_MS: millisecondsSetting(defaults.idlePeriodMs),
    /** How long the workload's disruption Lease holds without a renewal. */
    LOCK_DURATION_SECONDS: z.coerce.number().int().min(5).default(60),
  };
}

/** The TraitTiming those settings give. */
export function traitTiming(settings: { readonly STEP_PERIOD_MS: number; readonly IDLE_PERIOD_MS: number; readonly LOCK_DURATION_SECONDS: number }): TraitTiming {
  return { stepMs: settings.STEP_PERIOD_MS, idleMs: settings.IDLE_PERIOD_MS, lockDurationSeconds: settings.LOCK_DURATION_SECONDS };
}

// Events the scale controller publishes while it changes an ensemble's membership one member at a time.
import { z } from 'zod';
import { blockedEventDataSchema, eventSchema } from './envelope.js';

const scaleStepData = z.object({
  /** Counts the steps of one scaling operation, from 1. */
  step: z.number().int().min(1),
  /** Ensemble size before the step. */
  from: z.number().int().min(0),
  /** Ensemble size after the step. */
  to: z.number().int().min(0),
  /** The pod joining or leaving, when the step concerns one. */
  member: z.string().min(1).optional(),
});

export const scaleStepStartedEventSchema = eventSchema('ScaleStepStarted', scaleStepData);
export const scaleStepCompletedEventSchema = eventSchema('ScaleStepCompleted', scaleStepData);
/** Scaling cannot proceed safely (for example, the step would lose quorum). */
export const scaleBlockedEventSchema = eventSchema('ScaleBlocked', blockedEventDataSchema);

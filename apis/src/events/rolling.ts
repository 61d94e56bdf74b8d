// Events the rolling controller publishes while it restarts outdated pods, followers first, leader last.
import { z } from 'zod';
import { blockedEventDataSchema, eventSchema } from './envelope.js';

const rollingStepData = z.object({
  pod: z.string().min(1),
  /** Whether the pod restarted in this step was the ZooKeeper leader. */
  leader: z.boolean(),
});

export const rollingStepStartedEventSchema = eventSchema('RollingStepStarted', rollingStepData);
export const rollingStepCompletedEventSchema = eventSchema('RollingStepCompleted', rollingStepData);
/** The rolling restart cannot proceed safely (for example, a member is not synced). */
export const rollingBlockedEventSchema = eventSchema('RollingBlocked', blockedEventDataSchema);
/** Every pod runs the current template. */
export const rollingCompletedEventSchema = eventSchema('RollingCompleted', z.object({}));

import { describe, expect, it } from 'vitest';
import { processEnvSchema } from './process.js';

describe('processEnvSchema', () => {
  it('watches every namespace unless WATCH_NAMESPACE names one', () => {
    expect(processEnvSchema.parse({}).WATCH_NAMESPACE).toBeUndefined();
    expect(processEnvSchema.parse({ WATCH_NAMESPACE: 'kafka-prod' }).WATCH_NAMESPACE).toBe('kafka-prod');
  });

  it('refuses a WATCH_NAMESPACE that cannot be a namespace, saying what it must be', () => {
    for (const bad of ['', 'Kafka', 'kafka_prod', '-kafka', 'a'.repeat(64)]) {
      const result = processEnvSchema.safeParse({ WATCH_NAMESPACE: bad });
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message).toContain('WATCH_NAMESPACE must be a namespace name');
    }
  });
});

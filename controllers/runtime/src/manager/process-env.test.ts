import { describe, expect, it } from 'vitest';
import { failureReason } from './run-main.js';
import { processEnvSchema } from './process.js';

describe('processEnvSchema', () => {
  it('watches every namespace unless WATCH_NAMESPACE names some, each once', () => {
    expect(processEnvSchema.parse({}).WATCH_NAMESPACE).toBeUndefined();
    expect(processEnvSchema.parse({ WATCH_NAMESPACE: 'kafka-prod' }).WATCH_NAMESPACE).toEqual(['kafka-prod']);
    expect(processEnvSchema.parse({ WATCH_NAMESPACE: 'kafka-prod, kafka-test,kafka-prod' }).WATCH_NAMESPACE).toEqual(['kafka-prod', 'kafka-test']);
  });

  it('refuses a WATCH_NAMESPACE entry that cannot be a namespace, naming it and saying what it must be', () => {
    for (const [bad, entry] of [['', ''], ['Kafka', 'Kafka'], ['kafka,kafka_prod', 'kafka_prod'], ['-kafka', '-kafka'], ['kafka,', ''], ['a'.repeat(64), 'a'.repeat(64)]] as const) {
      const result = processEnvSchema.safeParse({ WATCH_NAMESPACE: bad });
      expect(result.success, bad).toBe(false);
      expect(failureReason(result.error), bad).toContain(`${JSON.stringify(entry)} is not a namespace name`);
      expect(result.error?.issues[0]?.message).toContain('WATCH_NAMESPACE must be namespace names separated by commas');
    }
  });
});

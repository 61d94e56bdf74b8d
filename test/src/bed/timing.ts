// Runs a step of bed startup and logs how long it took ("etcd ready in 1.2s").
import type { Logger } from 'pino';

export async function timed<T>(log: Logger, step: string, action: () => Promise<T>): Promise<T> {
  const started = performance.now();
  log.debug({ step }, `${step} starting`);
  const result = await action();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log.info({ step, seconds: Number(seconds) }, `${step} ready in ${seconds}s`);
  return result;
}

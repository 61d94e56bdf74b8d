import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { processEnvSchema } from './process.js';
import { runMain } from './run-main.js';

/** The lines runMain wrote, and the exit codes it asked for. */
function capture(): { lines: string[]; exits: number[]; options: { destination: Writable; exit: (code: number) => void } } {
  const lines: string[] = [];
  const exits: number[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
      done();
    },
  });
  return { lines, exits, options: { destination, exit: (code) => exits.push(code) } };
}

describe('runMain', () => {
  it('ends a main that cannot start with one JSON line naming the reason, and exit code 1', async () => {
    const { lines, exits, options } = capture();
    await runMain('workload', () => Promise.reject(new Error('no KUBECONFIG and not in a pod')), options);
    expect(exits).toEqual([1]);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '') as { level: number; name: string; msg: string; err: { message: string; stack: string } };
    expect(line).toMatchObject({ level: 60, name: 'workload', msg: 'no KUBECONFIG and not in a pod', err: { message: 'no KUBECONFIG and not in a pod' } });
    expect(line.err.stack).toContain('run-main.test.ts');
  });

  it('names each refused environment variable and what is wrong with it', async () => {
    const { lines, options } = capture();
    await runMain('scale', () => Promise.resolve().then(() => void processEnvSchema.parse({ METRICS_PORT: '70000', LOG_LEVEL: 'loud' })), options);
    const { msg } = JSON.parse(lines[0] ?? '') as { msg: string };
    expect(msg).toMatch(/^invalid environment: METRICS_PORT: .*; LOG_LEVEL: /);
  });

  it('leaves a main that returns alone', async () => {
    const { lines, exits, options } = capture();
    await runMain('rolling', () => Promise.resolve(), options);
    expect({ lines, exits }).toEqual({ lines: [], exits: [] });
  });
});

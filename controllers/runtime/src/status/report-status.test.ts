// A reconcile's last step: the next status from the stored one, written only when new; a failed write names the step.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ReconcileStepError } from '../controller/step-error.js';
import { namespacedResource } from '../kube/resource.js';
import { reportStatus } from './report-status.js';
import { WrittenStatuses } from './written-statuses.js';

const target = {
  resource: namespacedResource({ group: 'example.dev', version: 'v1', plural: 'widgets', kind: 'Widget' }),
  schema: z.object({ phase: z.string().optional(), observedGeneration: z.number().optional() }),
  fieldManager: 'widgets',
};
const now = new Date('2026-11-29T12:00:00Z');
const widget = (status: unknown) => ({ metadata: { namespace: 'ns', name: 'w', generation: 4 }, status });

function client(fail = false) {
  const paths: string[] = [];
  return {
    paths,
    request: (_verb: string, path: string): Promise<unknown> => {
      paths.push(path);
      return fail ? Promise.reject(new Error('apiserver unavailable')) : Promise.resolve({});
    },
  };
}

describe('reportStatus', () => {
  it('derives the next status from the stored one and the generation, and writes it when it changed', async () => {
    const api = client();
    const report = await reportStatus(api, target, widget({ phase: 'Idle' }), now, (previous, context) => ({
      phase: previous?.phase === 'Idle' ? 'Running' : 'Unknown',
      observedGeneration: context.generation,
    }));
    expect(report).toEqual({ previous: { phase: 'Idle' }, next: { phase: 'Running', observedGeneration: 4 }, written: true });
    expect(api.paths).toEqual(['/apis/example.dev/v1/namespaces/ns/widgets/w/status']);
  });

  it('writes nothing when the next status is the stored one', async () => {
    const api = client();
    const report = await reportStatus(api, target, widget({ phase: 'Idle' }), now, (previous) => ({ ...previous }));
    expect(report.written).toBe(false);
    expect(api.paths).toEqual([]);
  });

  it('reads a stored status that does not validate as none', async () => {
    const report = await reportStatus(client(), target, widget({ phase: 7 }), now, (previous) => ({ phase: previous === undefined ? 'Fresh' : 'Kept' }));
    expect(report.previous).toBeUndefined();
    expect(report.next).toEqual({ phase: 'Fresh' });
  });

  it('derives from its own last write while the cache has not caught up with it, and writes nothing more', async () => {
    const written = new WrittenStatuses(target.schema);
    const stored = (phase: string, resourceVersion: string) => ({ metadata: { namespace: 'ns', name: 'w', uid: 'u', resourceVersion }, status: { phase } });
    const api = { paths: [] as string[], request: (_verb: string, path: string): Promise<unknown> => (api.paths.push(path), Promise.resolve(stored('Running', '12'))) };
    const stale = stored('Idle', '11');
    const first = await reportStatus(api, target, stale, now, () => ({ phase: 'Running' }), { written });
    expect(first.written).toBe(true);
    const again = await reportStatus(api, target, stale, now, (previous) => ({ phase: previous?.phase === 'Running' ? 'Running' : 'Unknown' }), { written });
    expect(again).toEqual({ previous: { phase: 'Running' }, next: { phase: 'Running' }, written: false });
    expect(api.paths).toHaveLength(1);
  });

  it('fails as the ReportStatus step with the reason StatusWriteFailed, naming the object', async () => {
    const failure = reportStatus(client(true), target, widget({}), now, () => ({ phase: 'Running' }));
    await expect(failure).rejects.toBeInstanceOf(ReconcileStepError);
    await expect(failure).rejects.toMatchObject({ step: 'ReportStatus', category: 'StatusWriteFailed', object: 'Widget ns/w' });
  });
});

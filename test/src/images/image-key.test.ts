import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../bed/paths.js';
import { copiedSources, imageKey } from './image-key.js';

describe('copiedSources', () => {
  it("takes the repository paths of the Dockerfile's COPY lines, not those copied from a build stage", () => {
    const dockerfile = ['COPY package.json package-lock.json ./', 'COPY --chown=0:0 apis/ apis/', 'COPY --from=build --chown=0:0 /dist/ /app/', 'RUN COPY x y'].join('\n');
    expect(copiedSources(dockerfile)).toEqual(['package.json', 'package-lock.json', 'apis/']);
  });

  it("covers every workspace the repository's Dockerfile builds from", () => {
    const sources = copiedSources(readFileSync(join(repoRoot(), 'Dockerfile'), 'utf8'));
    expect(sources).toEqual(expect.arrayContaining(['package-lock.json', 'apis/', 'controllers/', 'console/', 'scripts/bundle.mjs', 'test/package.json']));
  });
});

describe('imageKey', () => {
  const image = { context: 'c0ffee', name: 'workload', inputs: ['localhost/zk-oam/build-base:1', 'localhost/zk-oam/run-base:1'] };

  it('is the same for the same inputs, and changes with each of them', () => {
    expect(imageKey(image)).toBe(imageKey({ ...image, inputs: [...image.inputs] }));
    const changed = [
      { context: 'c0ffef' },
      { name: 'scale' },
      { inputs: ['localhost/zk-oam/build-base:2', 'localhost/zk-oam/run-base:1'] },
      { inputs: ['localhost/zk-oam/build-base:1', 'localhost/zk-oam/run-base:2'] },
      { inputs: ['localhost/zk-oam/run-base:1', 'localhost/zk-oam/build-base:1'] },
    ];
    for (const change of changed) expect(imageKey({ ...image, ...change }), JSON.stringify(change)).not.toBe(imageKey(image));
  });
});

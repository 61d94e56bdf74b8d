import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTROLLER_NAMES, controllerImage, controllerImageEntrypoints, dockerfileFacts } from './controller-images.js';
import { repoRoot } from './paths.js';

const dockerfile = readFileSync(join(repoRoot(), 'Dockerfile'), 'utf8');

describe('the controller images the bed runs', () => {
  it('are what the one Dockerfile builds: `npm run build` output for the CONTROLLER build argument, copied to /app', () => {
    expect(dockerfile).toMatch(/^RUN npx turbo run build --filter=@zk-oam\/\$\{CONTROLLER\}$/m);
    expect(dockerfileFacts(dockerfile)).toEqual({
      entrypoint: ['node', '/app/main.mjs'],
      copiedFrom: '/src/controllers/${CONTROLLER}/dist/',
      copiedTo: '/app/',
    });
  });

  it("run the Dockerfile's entrypoint on the controller's bundle, for the image each Deployment names", () => {
    const entrypoints = controllerImageEntrypoints('/node');
    for (const name of CONTROLLER_NAMES) {
      const deployment = readFileSync(join(repoRoot(), 'deploy', name, 'deployment.yaml'), 'utf8');
      expect(deployment).toContain(`image: ${controllerImage(name)}`);
      expect(entrypoints[controllerImage(name)]).toEqual(['/node', join(repoRoot(), 'controllers', name, 'dist/main.mjs')]);
    }
  });
});

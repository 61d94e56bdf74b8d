import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controllerImage, controllerImageEntrypoints, dockerfileFacts, IMAGE_NAMES } from './controller-images.js';
import { repoRoot } from './paths.js';

const dockerfile = readFileSync(join(repoRoot(), 'Dockerfile'), 'utf8');

const packageOf = { workload: 'controllers/workload', scale: 'controllers/scale', rolling: 'controllers/rolling', appconfig: 'controllers/appconfig', console: 'console' };

describe('the images the bed runs', () => {
  it("are what the one Dockerfile builds: `npm run build` output of the CONTROLLER build argument's package, copied to /app", () => {
    expect(dockerfile).toMatch(/^RUN npx turbo run build --filter=@zk-oam\/\$\{CONTROLLER\} && cp -r node_modules\/@zk-oam\/\$\{CONTROLLER\}\/dist \/dist$/m);
    expect(dockerfileFacts(dockerfile)).toEqual({ entrypoint: ['node', '/app/main.mjs'], copiedFrom: '/dist/', copiedTo: '/app/' });
  });

  it.each(IMAGE_NAMES)("%s: runs the Dockerfile's entrypoint on the package's bundle, for the image its Deployment names", (name) => {
    const entrypoints = controllerImageEntrypoints('/node');
    const deployment = readFileSync(join(repoRoot(), 'deploy', name, 'deployment.yaml'), 'utf8');
    expect(deployment).toContain(`image: ${controllerImage(name)}`);
    expect(entrypoints[controllerImage(name)]).toEqual(['/node', join(repoRoot(), packageOf[name], 'dist/main.mjs')]);
  });
});

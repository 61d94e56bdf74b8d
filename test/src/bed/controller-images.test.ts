import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controllerImage, IMAGE_NAMES } from './controller-images.js';
import { repoRoot } from './paths.js';

describe('the images the bed runs', () => {
  it.each(IMAGE_NAMES)('%s: is published under the reference its Deployment names', (name) => {
    const deployment = readFileSync(join(repoRoot(), 'deploy', name, 'deployment.yaml'), 'utf8');
    expect(deployment).toContain(`image: ${controllerImage(name)}`);
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_INSTALL, installedImages } from '../controllers/install.js';
import { otherInstallImages } from './bed-images.js';
import { IMAGE_NAMES } from './controller-images.js';

describe('the images npm start builds before and after its demo', () => {
  it('builds after the demo exactly our images the default install does not run', () => {
    const first = installedImages(DEFAULT_INSTALL);
    const after = otherInstallImages();
    expect(after.filter((name) => first.includes(name))).toEqual([]);
    expect([...first, ...after].sort()).toEqual([...IMAGE_NAMES].sort());
    expect(after.length).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from 'vitest';
import { runnableSpec } from './runc-bundle.js';

describe('runnableSpec', () => {
  const spec = {
    ociVersion: '1.0.2',
    process: { terminal: true, user: { uid: 65532, gid: 65532 }, args: ['node', '/app/main.mjs'] },
    root: { path: 'rootfs' },
    linux: {
      namespaces: [{ type: 'pid' }, { type: 'network' }, { type: 'mount' }, { type: 'user' }],
      resources: { devices: [] },
      cgroupsPath: '/x',
      uidMappings: [],
      gidMappings: [],
      maskedPaths: ['/proc/kcore'],
    },
  };

  it("keeps the image's user and command, makes the root read-only, and drops the network, user namespaces and cgroup settings", () => {
    expect(runnableSpec(spec)).toEqual({
      ociVersion: '1.0.2',
      process: { terminal: false, user: { uid: 65532, gid: 65532 }, args: ['node', '/app/main.mjs'] },
      root: { path: 'rootfs', readonly: true },
      linux: { namespaces: [{ type: 'pid' }, { type: 'mount' }], maskedPaths: ['/proc/kcore'] },
    });
  });

  it('runs the given command instead of the image’s, as the same user', () => {
    expect(runnableSpec(spec, ['id', '-u']).process).toEqual({ terminal: false, user: { uid: 65532, gid: 65532 }, args: ['id', '-u'] });
  });
});

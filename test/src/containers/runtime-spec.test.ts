import { describe, expect, it } from 'vitest';
import { containerSpec } from './runtime-spec.js';
import type { RUNTIME_DEFAULT_SECCOMP } from './seccomp-profile.js';

describe('containerSpec', () => {
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
    expect(containerSpec(spec)).toEqual({
      ociVersion: '1.0.2',
      process: { terminal: false, user: { uid: 65532, gid: 65532 }, args: ['node', '/app/main.mjs'] },
      root: { path: 'rootfs', readonly: true },
      linux: { namespaces: [{ type: 'pid' }, { type: 'mount' }], maskedPaths: ['/proc/kcore'] },
    });
  });

  it('joins the network namespace the run names (a pod’s sandbox) instead of the image’s own', () => {
    expect(containerSpec(spec, { networkNamespace: '/run/netns/bed1-uid' }).linux.namespaces).toEqual([
      { type: 'pid' },
      { type: 'mount' },
      { type: 'network', path: '/run/netns/bed1-uid' },
    ]);
  });

  it('filters system calls for RuntimeDefault, refusing namespaces, mounts and module loading with EPERM, and not otherwise', () => {
    const filtered = containerSpec(spec, { seccomp: 'RuntimeDefault' }).linux['seccomp'] as typeof RUNTIME_DEFAULT_SECCOMP;
    expect(filtered.defaultAction).toBe('SCMP_ACT_ALLOW');
    expect(filtered.syscalls).toEqual([expect.objectContaining({ action: 'SCMP_ACT_ERRNO', errnoRet: 1, names: expect.arrayContaining(['unshare', 'setns', 'mount', 'init_module', 'bpf']) as unknown })]);
    expect(filtered.syscalls[0].names).not.toContain('clone');
    const withImageFilter = { ...spec, linux: { ...spec.linux, seccomp: { defaultAction: 'SCMP_ACT_KILL' } } };
    expect(containerSpec(withImageFilter).linux).not.toHaveProperty('seccomp');
  });

  it('runs the given command instead of the image’s, as the same user', () => {
    expect(containerSpec(spec, { args: ['id', '-u'] }).process).toEqual({ terminal: false, user: { uid: 65532, gid: 65532 }, args: ['id', '-u'] });
  });

  it("sets the run's variables over the image's, and adds its bind mounts after the image's mounts", () => {
    const withImageEnv = { ...spec, process: { ...spec.process, env: ['PATH=/usr/bin', 'HOME=/'] }, mounts: [{ destination: '/proc', type: 'proc' }] };
    const run = { env: { HOME: '/data', POD_NAME: 'zk-0' }, mounts: [{ source: '/tmp/volume', destination: '/data', readOnly: false }, { source: '/tmp/config', destination: '/config', readOnly: true }] };
    const runnable = containerSpec(withImageEnv, run);
    expect(runnable.process.env).toEqual(['PATH=/usr/bin', 'HOME=/data', 'POD_NAME=zk-0']);
    expect(runnable.mounts).toEqual([
      { destination: '/proc', type: 'proc' },
      { destination: '/data', type: 'bind', source: '/tmp/volume', options: ['rbind', 'rw'] },
      { destination: '/config', type: 'bind', source: '/tmp/config', options: ['rbind', 'ro'] },
    ]);
  });

  it("sets the run's user, working directory, capabilities and hostname, drops umoci's resource limits, and keeps the root writable when asked", () => {
    const withLimits = { ...spec, process: { ...spec.process, rlimits: [{ type: 'RLIMIT_NOFILE', hard: 1024, soft: 1024 }], noNewPrivileges: true } };
    const runnable = containerSpec(withLimits, {
      user: { uid: 1000, gid: 1000, additionalGids: [1000] },
      cwd: '/data',
      capabilities: ['CAP_KILL'],
      noNewPrivileges: false,
      hostname: 'zk-0',
      writableRoot: true,
    });
    expect(runnable.process).toEqual({
      terminal: false,
      user: { uid: 1000, gid: 1000, additionalGids: [1000] },
      args: ['node', '/app/main.mjs'],
      cwd: '/data',
      capabilities: { bounding: ['CAP_KILL'], effective: ['CAP_KILL'], permitted: ['CAP_KILL'], inheritable: [], ambient: [] },
      noNewPrivileges: false,
    });
    expect(runnable).toMatchObject({ hostname: 'zk-0', root: { path: 'rootfs', readonly: false } });
  });
});

import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { commandLine, LaunchError, processEnv, type HostEnvironment } from './pod-launch.js';

const host: HostEnvironment = {
  overrides: { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: '6443' },
  imageEntrypoints: { 'ghcr.io/zk-oam/workload:0.1.0': ['/usr/bin/node', '/repo/controllers/workload/dist/main.mjs'] },
  hostsFile: '/bed/hosts',
  jvmOptions: ['-XX:TieredStopAtLevel=1', '-XX:SharedArchiveFile=/cache/zookeeper.jsa'],
};
const mappings = [{ mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', hostPath: '/bed/pods/p/volumes/kube-api-access-x' }];

describe('commandLine', () => {
  it("runs the image's entrypoint, then the args, when the container sets no command", () => {
    const container: V1Container = { name: 'controller', image: 'ghcr.io/zk-oam/workload:0.1.0', args: ['--flag=$(MODE)'] };
    expect(commandLine(container, { MODE: 'x' }, [], host.imageEntrypoints)).toEqual(['/usr/bin/node', '/repo/controllers/workload/dist/main.mjs', '--flag=x']);
  });

  it('prefers the container command, and says which image it cannot run', () => {
    expect(commandLine({ name: 'c', image: 'ghcr.io/zk-oam/workload:0.1.0', command: ['sh'] }, {}, [], host.imageEntrypoints)).toEqual(['sh']);
    expect(() => commandLine({ name: 'c', image: 'elsewhere/unknown:1' }, {}, [], host.imageEntrypoints)).toThrow(LaunchError);
    expect(() => commandLine({ name: 'c', image: 'elsewhere/unknown:1' }, {}, [], host.imageEntrypoints)).toThrow(/elsewhere\/unknown:1/);
  });
});

describe('processEnv', () => {
  const pod: V1Pod = { metadata: { name: 'zk-oam-workload-abc', namespace: 'zk-oam-system' } };

  it('maps the service-account directory, narrows 0.0.0.0 to the pod IP and gives the in-cluster API address', () => {
    const env = processEnv(
      pod,
      { SERVICE_ACCOUNT_DIR: '/var/run/secrets/kubernetes.io/serviceaccount', HEALTH_HOST: '0.0.0.0', LOG_LEVEL: 'info' },
      mappings,
      host,
      '/bed/pods/p',
      '127.64.0.9',
    );
    expect(env).toMatchObject({
      SERVICE_ACCOUNT_DIR: '/bed/pods/p/volumes/kube-api-access-x',
      HEALTH_HOST: '127.64.0.9',
      LOG_LEVEL: 'info',
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: '6443',
      HOSTNAME: 'zk-oam-workload-abc',
    });
  });

  it("puts the bed's JVM options and hosts file before the pod's own JDK_JAVA_OPTIONS, so the pod's win", () => {
    const env = processEnv(pod, { JDK_JAVA_OPTIONS: '-XX:+UseG1GC -Xmx1g' }, [], host, '/bed/pods/p', '127.64.0.9');
    expect(env['JDK_JAVA_OPTIONS']).toBe('-XX:TieredStopAtLevel=1 -XX:SharedArchiveFile=/cache/zookeeper.jsa -Djdk.net.hosts.file=/bed/hosts -XX:+UseG1GC -Xmx1g');
  });
});

import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { ImageBundle } from '../containers/image-bundles.js';
import { commandLine, LaunchError, podContainerRun, type NodeFacts } from './pod-container.js';

const image: ImageBundle = {
  rootfs: '/cache/images/unpacked/abc/rootfs',
  spec: { process: { user: { uid: 65532, gid: 65532 }, args: ['node', '/app/main.mjs'] }, root: { path: 'rootfs' }, linux: { namespaces: [] } },
  config: { digest: 'sha256:abc', user: '65532:65532', entrypoint: ['node'], cmd: ['/app/main.mjs'], env: {}, workingDir: '/app', compressedBytes: 0 },
};
const node: NodeFacts = {
  apiServer: { host: '10.97.0.1', port: '443' },
  networkNamespace: '/run/netns/bed1-uid',
  dnsFiles: { hosts: '/bed/agent/pods/ns_p/hosts', resolvConf: '/bed/agent/pods/ns_p/resolv.conf' },
  marker: { name: 'ZK_OAM_BED_POD_DIR', value: '/bed/agent/pods/ns_p' },
};
const pod: V1Pod = { metadata: { name: 'zk-oam-workload-abc', namespace: 'zk-oam-system' }, spec: { containers: [] } };

describe('commandLine', () => {
  const config = image.config;
  it.each([
    ['neither command nor args: the image’s entrypoint and command', {}, ['node', '/app/main.mjs']],
    ['args only: the image’s entrypoint with the args, $(VAR) expanded', { args: ['--mode=$(MODE)'] }, ['node', '--mode=x']],
    ['command only: the command alone, the image’s command dropped', { command: ['sh', '-c', 'echo $(MODE)'] }, ['sh', '-c', 'echo x']],
    ['command and args', { command: ['bash'], args: ['/config/start.sh'] }, ['bash', '/config/start.sh']],
  ])('%s', (_case, fields: Partial<V1Container>, expected) => {
    expect(commandLine({ name: 'c', ...fields }, config, { MODE: 'x' })).toEqual(expected);
  });

  it('refuses a container that names no command when its image has none either', () => {
    expect(() => commandLine({ name: 'c', image: 'x:1' }, { ...config, entrypoint: [], cmd: [] }, {})).toThrow(LaunchError);
  });
});

describe('podContainerRun', () => {
  const controller: V1Container = {
    name: 'controller',
    image: 'ghcr.io/zk-oam/workload:0.1.0',
    volumeMounts: [{ name: 'kube-api-access-x', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }],
    securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  };
  const volumes = new Map([['kube-api-access-x', '/bed/agent/pods/ns_p/volumes/kube-api-access-x']]);

  it('runs a controller as its Deployment says: the image’s user and entrypoint, no capabilities, no escalation, a read-only root, in its pod’s network with its DNS files', () => {
    const run = podContainerRun({ ...pod, spec: { containers: [controller], securityContext: { runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532 } } }, controller, image, { HEALTH_HOST: '0.0.0.0' }, volumes, node);
    expect(run).toEqual({
      args: ['node', '/app/main.mjs'],
      env: {
        HOSTNAME: 'zk-oam-workload-abc',
        KUBERNETES_SERVICE_HOST: '10.97.0.1',
        KUBERNETES_SERVICE_PORT: '443',
        KUBERNETES_SERVICE_PORT_HTTPS: '443',
        HEALTH_HOST: '0.0.0.0',
        ZK_OAM_BED_POD_DIR: '/bed/agent/pods/ns_p',
      },
      user: { uid: 65532, gid: 65532, additionalGids: [] },
      cwd: '/app',
      hostname: 'zk-oam-workload-abc',
      mounts: [
        { source: '/bed/agent/pods/ns_p/volumes/kube-api-access-x', destination: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
        { source: '/bed/agent/pods/ns_p/hosts', destination: '/etc/hosts', readOnly: true },
        { source: '/bed/agent/pods/ns_p/resolv.conf', destination: '/etc/resolv.conf', readOnly: true },
      ],
      networkNamespace: '/run/netns/bed1-uid',
      capabilities: [],
      noNewPrivileges: true,
      writableRoot: false,
    });
  });

  it('filters system calls for a RuntimeDefault seccomp profile, the container’s over the pod’s, and refuses a Localhost one', () => {
    const withProfile = (podProfile: string | undefined): V1Pod => ({
      ...pod,
      spec: { containers: [controller], securityContext: { runAsUser: 65532, ...(podProfile === undefined ? {} : { seccompProfile: { type: podProfile } }) } },
    });
    const runOf = (podProfile: string | undefined, containerProfile: string | undefined) => {
      const container = { ...controller, securityContext: { ...controller.securityContext, ...(containerProfile === undefined ? {} : { seccompProfile: { type: containerProfile } }) } };
      return podContainerRun(withProfile(podProfile), container, image, {}, volumes, node);
    };
    expect(runOf('RuntimeDefault', undefined).seccomp).toBe('RuntimeDefault');
    expect(runOf(undefined, 'RuntimeDefault').seccomp).toBe('RuntimeDefault');
    expect(runOf('RuntimeDefault', 'Unconfined').seccomp).toBeUndefined();
    expect(runOf(undefined, undefined).seccomp).toBeUndefined();
    expect(() => runOf('Localhost', undefined)).toThrow(LaunchError);
  });

  it('runs as runAsUser and runAsGroup with fsGroup and supplementalGroups added, the container’s context over the pod’s', () => {
    const member: V1Container = { name: 'zookeeper', image: 'zookeeper', securityContext: { runAsUser: 2000 } };
    const run = podContainerRun({ ...pod, spec: { containers: [member], securityContext: { runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, supplementalGroups: [3000] } } }, member, image, {}, new Map(), node);
    expect(run.user).toEqual({ uid: 2000, gid: 1000, additionalGids: [3000] });
    expect(run.writableRoot).toBe(true);
    expect(run.noNewPrivileges).toBe(false);
    expect(run.capabilities).toContain('CAP_NET_BIND_SERVICE');
  });

  it('gives group 0 to a runAsUser that is not the image’s user and names no group, as containerd does without a passwd entry', () => {
    const member: V1Container = { name: 'zookeeper', image: 'zookeeper' };
    expect(podContainerRun({ ...pod, spec: { containers: [member], securityContext: { runAsUser: 1000 } } }, member, image, {}, new Map(), node).user).toEqual({ uid: 1000, gid: 0, additionalGids: [] });
  });

  it('refuses runAsNonRoot for an image that runs as root, and a mount of a volume the pod lacks', () => {
    const rootImage = { ...image, spec: { ...image.spec, process: { ...image.spec.process, user: { uid: 0, gid: 0 } } } };
    const strict: V1Container = { name: 'c', image: 'root:1', securityContext: { runAsNonRoot: true } };
    expect(() => podContainerRun(pod, strict, rootImage, {}, new Map(), node)).toThrow(/runAsNonRoot/);
    expect(() => podContainerRun(pod, controller, image, {}, new Map(), node)).toThrow(/kube-api-access-x/);
  });

  it('mounts a subPath of its volume, and prefers the container’s workingDir', () => {
    const withSubPath: V1Container = { name: 'c', workingDir: '/work', volumeMounts: [{ name: 'config', mountPath: '/conf/zoo.cfg', subPath: 'zoo.cfg' }] };
    const run = podContainerRun(pod, withSubPath, image, {}, new Map([['config', '/v/config']]), node);
    expect(run.mounts?.[0]).toEqual({ source: '/v/config/zoo.cfg', destination: '/conf/zoo.cfg', readOnly: false });
    expect(run.cwd).toBe('/work');
  });

  it('leaves /etc/hosts to a container that mounts a volume there, as kubelet does', () => {
    const own: V1Container = { name: 'c', volumeMounts: [{ name: 'hosts', mountPath: '/etc/hosts' }] };
    const run = podContainerRun(pod, own, image, {}, new Map([['hosts', '/v/hosts']]), node);
    expect(run.mounts?.filter((mount) => mount.destination === '/etc/hosts')).toEqual([{ source: '/v/hosts', destination: '/etc/hosts', readOnly: false }]);
    expect(run.mounts?.map((mount) => mount.destination)).toContain('/etc/resolv.conf');
  });
});

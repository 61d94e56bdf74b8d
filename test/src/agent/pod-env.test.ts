// Container env as kubelet builds it.
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { EnvResolutionError, expandReferences, resolveEnv, type EnvSources } from './pod-env.js';
import { divideQuantity } from './quantity.js';

const pod: V1Pod = {
  metadata: { name: 'zk-0', namespace: 'team', uid: 'u-1', labels: { app: 'zk' } },
  spec: { nodeName: 'bed-node-2', containers: [] },
};
const sources: EnvSources = {
  configMaps: new Map([['settings', { TICK: '2000', LIMIT: '10' }]]),
  secrets: new Map([['auth', { password: 's3cret' }]]),
};
const facts = { podIP: '127.64.1.2', hostIP: '127.0.0.1', nodeAllocatable: { cpu: '4', memory: '8Gi' } };

describe('resolveEnv', () => {
  it('resolves values, field refs, resource refs, key refs and envFrom as kubelet does', () => {
    const container: V1Container = {
      name: 'zookeeper',
      envFrom: [{ configMapRef: { name: 'settings' }, prefix: 'ZK_' }],
      env: [
        { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
        { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
        { name: 'HEAP_MB', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
        { name: 'CPUS', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
        { name: 'TICK', valueFrom: { configMapKeyRef: { name: 'settings', key: 'TICK' } } },
        { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'auth', key: 'password' } } },
        { name: 'URL', value: 'zk://$(POD_IP):2181/$$(literal)' },
      ],
      resources: { limits: { memory: '512Mi' } },
    };
    expect(resolveEnv(pod, container, sources, facts)).toEqual({
      ZK_TICK: '2000',
      ZK_LIMIT: '10',
      POD_NAME: 'zk-0',
      POD_IP: '127.64.1.2',
      APP: 'zk',
      NODE: 'bed-node-2',
      HEAP_MB: '512',
      CPUS: '4',
      TICK: '2000',
      PASSWORD: 's3cret',
      URL: 'zk://127.64.1.2:2181/$(literal)',
    });
  });

  it('refuses a missing key unless the reference is optional', () => {
    const missing = (optional: boolean): V1Container => ({
      name: 'c',
      env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'settings', key: 'NOPE', optional } } }],
    });
    expect(() => resolveEnv(pod, missing(false), sources, facts)).toThrow(EnvResolutionError);
    expect(resolveEnv(pod, missing(true), sources, facts)).toEqual({});
  });

  it('leaves references to unknown variables as written', () => {
    expect(expandReferences('$(UNKNOWN)-$(A)', { A: 'a' })).toBe('$(UNKNOWN)-a');
  });

  it('rounds resource values up after dividing, as kubelet does', () => {
    expect(divideQuantity('250m', '1')).toBe('1');
    expect(divideQuantity('1Gi', '1Mi')).toBe('1024');
  });
});

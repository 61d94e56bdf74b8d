// The handover's reconfigs: through the voters that stay, as the superuser of the workload's Secret, and a lost answer
// left for the next observation.
import { derivedNames, memberHost, podName, statefulSetNameOf, TLS_SECRET_KEYS, ZOOKEEPER_PORTS, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { KubeApiError, type KubeObject } from '@zk-oam/runtime';
import { ZooKeeperConnectionError, zxidFromValue, type AdminTarget, type CommittedConfig, type EnsembleAdmin, type MemberAccess, type ServerEntry } from '@zk-oam/zookeeper';
import { describe, expect, it } from 'vitest';
import { assessSimulated } from '../plan/simulated-ensemble.js';
import { reconfigure, type ReconfigStep } from './reconfigure.js';

const key = { namespace: 'ns', name: 'roll' };
const workload: KubeObject = { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, metadata: { name: 'zk', namespace: 'ns' }, spec: {} };
const password = Buffer.from('secret').toString('base64');
const caPem = Buffer.from('-----BEGIN CERTIFICATE-----\nworkload CA\n-----END CERTIFICATE-----\n').toString('base64');
const ensemble = assessSimulated({ voters: [1, 2, 3], members: [1, 2, 3], leader: 3, state: () => 'synced' });
/** Member 3, in pod zk-2, as the workload renders its server line. */
const pod = podName(statefulSetNameOf('zk'), 2);
const host = memberHost('zk', 'ns', 2);
const server: ServerEntry = { id: 3, host, quorumPort: ZOOKEEPER_PORTS.quorum, electionPort: ZOOKEEPER_PORTS.election, role: 'participant', clientAddress: host, clientPort: ZOOKEEPER_PORTS.client };
const handOver: ReconfigStep = { kind: 'HandOverLeadership', pod: { name: pod, uid: 'u', leader: true }, server, fromVersion: zxidFromValue(0x100000003n) };

function fakes(options: { secret?: 'missing'; failure?: Error } = {}) {
  const calls: string[] = [];
  const admin: EnsembleAdmin = {
    reconfig: (delta, fromVersion) => {
      calls.push(`reconfig +[${delta.joining.map((entry) => `${String(entry.id)}:${entry.role}`).join(',')}] -[${delta.leaving.join(',')}] from ${fromVersion.value.toString(16)}`);
      return options.failure === undefined ? Promise.resolve({} as CommittedConfig) : Promise.reject(options.failure);
    },
    confirmByWrite: () => Promise.reject(new Error('not used')),
    close: () => calls.push('close'),
  };
  const deps = {
    client: {
      request: (verb: string, path: string): Promise<unknown> => {
        calls.push(`${verb} ${path}`);
        if (options.secret === 'missing') return Promise.reject(new KubeApiError(404, 'NotFound', verb, path, 'secrets "zk-superuser" not found'));
        return Promise.resolve({ data: path.endsWith(`/${derivedNames('zk').tlsSecret}`) ? { [TLS_SECRET_KEYS.ca]: caPem } : { password } });
      },
    },
    connectAdmin: (targets: readonly AdminTarget[], access: MemberAccess, superPassword: string) => {
      const trust = access.tls === undefined ? '' : ` over TLS trusting ${Buffer.from(access.tls.ca).toString('base64') === caPem ? 'the workload CA' : 'another CA'}`;
      const members = targets.map((target) => `${target.ip}:${String(access.port)}${access.tls === undefined ? '' : ` (${access.tls.serverName(target)})`}`);
      calls.push(`connect ${members.join(',')}${trust} as ${superPassword}`);
      return Promise.resolve(admin);
    },
  };
  return { calls, deps };
}

describe('reconfigure', () => {
  it('takes the leader out through the other voters, as the superuser, guarded by the planned config version', async () => {
    const { calls, deps } = fakes();
    expect(await reconfigure(deps, key, workload, ensemble, handOver)).toEqual({ kind: 'done' });
    expect(calls).toEqual([
      'GET /api/v1/namespaces/ns/secrets/zk-superuser',
      'connect 127.0.1.1:2181,127.0.1.2:2181 as secret',
      'reconfig +[] -[3] from 100000003',
      'close',
    ]);
  });

  it('goes over TLS on the secure port when the workload has one, trusting the CA of its member Secret and checking each member\'s name', async () => {
    const { calls, deps } = fakes();
    const alongside: KubeObject = { ...workload, spec: { tls: { quorum: true, client: 'Alongside' } } };
    expect(await reconfigure(deps, key, alongside, ensemble, handOver)).toEqual({ kind: 'done' });
    expect(calls.slice(0, 3)).toEqual([
      'GET /api/v1/namespaces/ns/secrets/zk-tls',
      'GET /api/v1/namespaces/ns/secrets/zk-superuser',
      'connect 127.0.1.1:2281 (zk-0.zk-headless.ns.svc.cluster.local),127.0.1.2:2281 (zk-1.zk-headless.ns.svc.cluster.local) over TLS trusting the workload CA as secret',
    ]);
  });

  it('puts the member back as a participant with its recorded server line', async () => {
    const { calls, deps } = fakes();
    const restore: ReconfigStep = { kind: 'RestoreVoter', pod, server, fromVersion: zxidFromValue(0x100000004n) };
    expect(await reconfigure(deps, key, workload, assessSimulated({ voters: [1, 2], members: [1, 2, 3], leader: 2, state: () => 'synced' }), restore)).toEqual({ kind: 'done' });
    expect(calls).toContain('reconfig +[3:participant] -[] from 100000004');
  });

  it('leaves a lost answer to the next observation, and closes the session', async () => {
    const lost = new ZooKeeperConnectionError('connection loss', { connectString: '127.0.1.1:2181', operation: 'reconfig' });
    const { calls, deps } = fakes({ failure: lost });
    const outcome = await reconfigure(deps, key, workload, ensemble, handOver);
    expect(outcome).toMatchObject({ kind: 'unsettled', note: expect.stringContaining('the next observation decides') as unknown });
    expect(calls.at(-1)).toBe('close');
  });

  it('reports a reconfig ZooKeeper refused as ReconfigFailed, the reason the scale trait gives it, and closes the session', async () => {
    const { calls, deps } = fakes({ failure: new Error('ZooKeeper refused reconfig: ZNOAUTH') });
    const failing = reconfigure(deps, key, workload, ensemble, handOver);
    await expect(failing).rejects.toMatchObject({ step: 'Act', category: 'ReconfigFailed', object: 'ZookeeperRolling ns/roll' });
    expect(calls.at(-1)).toBe('close');
  });

  it('names the superuser Secret when it is missing, and opens no session', async () => {
    const { calls, deps } = fakes({ secret: 'missing' });
    const failing = reconfigure(deps, key, workload, ensemble, handOver);
    await expect(failing).rejects.toMatchObject({ step: 'Act', category: 'SuperuserSecretUnusable', object: 'ZookeeperRolling ns/roll' });
    await expect(failing).rejects.toThrow('Secret zk-superuser does not exist');
    expect(calls.some((call) => call.startsWith('connect'))).toBe(false);
  });
});

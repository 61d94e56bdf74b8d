// Carrying out one step: which members the admin session uses, what counts as an unsettled outcome, and that a
// member's pod is only stopped after a confirming write.
import { parseResource, ZOOKEEPER_WORKLOAD, zookeeperWorkloadSchema } from '@zk-oam/apis';
import { ZOO_CODES, ZooKeeperConnectionError, ZooKeeperOperationError, zxidFromValue, type CommittedConfig } from '@zk-oam/zookeeper';
import { describe, expect, it } from 'vitest';
import { World } from '../plan/test-world.js';
import { carryOut, voterTargets } from './act.js';
import type { AdminTarget, EnsembleAdmin, MemberAccess } from '@zk-oam/zookeeper';
import { ReconcileStepError } from '@zk-oam/runtime';

const workload = parseResource(
  zookeeperWorkloadSchema,
  {
    apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
    kind: 'ZookeeperWorkload',
    metadata: { name: 'zk', namespace: 'ns', uid: 'uid-1' },
    spec: { replicas: 4, storage: { size: '1Gi' } },
  },
  'test workload',
);
const key = { namespace: 'ns', name: 'zk-size' };
const password = Buffer.from('secret').toString('base64');

/** Records every API request and admin call, in order; the admin fails with `failure` when given. */
function fakes(failure?: Error) {
  const calls: string[] = [];
  const client = {
    request: (verb: string, path: string, options?: { body?: unknown }): Promise<unknown> => {
      calls.push(`${verb} ${path}${options?.body === undefined ? '' : ` ${JSON.stringify(options.body)}`}`);
      return Promise.resolve(verb === 'GET' ? { data: { password, 'ca.crt': Buffer.from('workload CA').toString('base64') } } : {});
    },
  };
  const admin: EnsembleAdmin = {
    reconfig: (delta) => {
      calls.push(`reconfig +[${delta.joining.map((server) => server.id).join(',')}] -[${delta.leaving.join(',')}]`);
      return failure === undefined ? Promise.resolve({} as CommittedConfig) : Promise.reject(failure);
    },
    confirmByWrite: () => {
      calls.push('confirm write');
      return failure === undefined ? Promise.resolve({ path: '/zk-oam-confirm', zxid: 1n }) : Promise.reject(failure);
    },
    close: () => calls.push('close'),
  };
  const deps = {
    client,
    connectAdmin: (targets: readonly AdminTarget[], access: MemberAccess, superPassword: string) => {
      const over = access.tls === undefined ? '' : ' over TLS';
      calls.push(`connect ${targets.map((target) => `${target.ip}:${String(access.port)}`).join(',')}${over} as ${superPassword}`);
      return Promise.resolve(admin);
    },
  };
  return { calls, deps };
}

describe('carryOut', () => {
  it('removes a member through the others only, authenticated with the superuser Secret', async () => {
    const { calls, deps } = fakes();
    const input = new World({ members: 4, target: 3 }).input();
    const outcome = await carryOut(deps, { key, workload, input }, { kind: 'ReconfigRemove', member: 4, fromVersion: zxidFromValue(1n) });
    expect(outcome).toEqual({ kind: 'acted', note: 'reconfig remove zk-3 (myid 4): committed' });
    expect(calls).toEqual([
      'GET /api/v1/namespaces/ns/secrets/zk-superuser',
      'connect 127.0.10.1:2181,127.0.10.2:2181,127.0.10.3:2181 as secret',
      'reconfig +[] -[4]',
      'close',
    ]);
  });

  it('confirms the committed config with a write before it lowers the replicas', async () => {
    const { calls, deps } = fakes();
    const world = new World({ members: 4, target: 3 });
    world.apply({ kind: 'ReconfigRemove', member: 4, fromVersion: zxidFromValue(world.configVersion) });
    await carryOut(deps, { key, workload, input: world.input() }, { kind: 'LowerReplicas', to: 3, member: 4 });
    expect(calls.slice(2)).toEqual([
      'confirm write',
      'close',
      'PATCH /apis/workload.zookeeper.zkoam.dev/v1alpha1/namespaces/ns/zookeeperworkloads/zk ' +
        '{"apiVersion":"workload.zookeeper.zkoam.dev/v1alpha1","kind":"ZookeeperWorkload","metadata":{"name":"zk","namespace":"ns","uid":"uid-1"},"spec":{"replicas":3}}',
    ]);
  });

  it.each([
    ['a lost answer', new ZooKeeperConnectionError('connection loss', { operation: 'reconfig', connectString: 'x' })],
    ['a config that moved', new ZooKeeperOperationError({ operation: 'reconfig', connectString: 'x', code: ZOO_CODES.ZBADVERSION })],
    ['a reconfig in progress', new ZooKeeperOperationError({ operation: 'reconfig', connectString: 'x', code: ZOO_CODES.ZRECONFIGINPROGRESS })],
  ])('leaves %s to the next observation', async (_what, failure) => {
    const { calls, deps } = fakes(failure);
    const input = new World({ members: 3, target: 4 }).input();
    const outcome = await carryOut(deps, { key, workload, input }, { kind: 'ReconfigRemove', member: 3, fromVersion: zxidFromValue(1n) });
    expect(outcome.kind).toBe('unsettled');
    expect(calls.at(-1)).toBe('close');
  });

  it('does not lower the replicas when the confirming write is unsettled', async () => {
    const { calls, deps } = fakes(new ZooKeeperConnectionError('connection loss', { operation: 'confirm write', connectString: 'x' }));
    const outcome = await carryOut(deps, { key, workload, input: new World({ members: 3, target: 2 }).input() }, { kind: 'LowerReplicas', to: 3, member: 4 });
    expect(outcome.kind).toBe('unsettled');
    expect(calls.some((call) => call.startsWith('PATCH'))).toBe(false);
  });

  it('fails a refused reconfig as ReconfigFailed', async () => {
    const { deps } = fakes(new ZooKeeperOperationError({ operation: 'reconfig', connectString: 'x', code: ZOO_CODES.ZNOAUTH }));
    const input = new World({ members: 3, target: 4 }).input();
    const failing = carryOut(deps, { key, workload, input }, { kind: 'ReconfigRemove', member: 3, fromVersion: zxidFromValue(1n) });
    await expect(failing).rejects.toBeInstanceOf(ReconcileStepError);
    await expect(failing).rejects.toMatchObject({ step: 'Act', category: 'ReconfigFailed' });
  });

  it('opens the session over TLS when the workload has a secure client port, trusting the CA of its member TLS Secret', async () => {
    const { calls, deps } = fakes();
    const alongside = parseResource(zookeeperWorkloadSchema, { ...workload, spec: { ...workload.spec, tls: { quorum: true, client: 'Alongside' } } }, 'TLS workload');
    const input = new World({ members: 4, target: 3 }).input();
    await carryOut(deps, { key, workload: alongside, input }, { kind: 'ReconfigRemove', member: 4, fromVersion: zxidFromValue(1n) });
    expect(calls.slice(0, 3)).toEqual([
      'GET /api/v1/namespaces/ns/secrets/zk-superuser',
      'GET /api/v1/namespaces/ns/secrets/zk-tls',
      'connect 127.0.10.1:2281,127.0.10.2:2281,127.0.10.3:2281 over TLS as secret',
    ]);
  });

  it('lists the voters\' pods with their IPs, leaving out the avoided member and pods without IP', () => {
    const input = new World({ members: 3, target: 3 }).input();
    expect(voterTargets(input, [2])).toEqual([
      { pod: 'zk-0', myid: 1, ip: '127.0.10.1' },
      { pod: 'zk-2', myid: 3, ip: '127.0.10.3' },
    ]);
    expect(voterTargets({ ...input, pods: input.pods.map((pod) => ({ ...pod, podIP: undefined })) }, [])).toEqual([]);
  });
});

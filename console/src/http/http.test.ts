import { KubeApiError } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { badRequest, errorAnswer } from './problem.js';
import { matchRoute, parameterNames, type RoutePattern } from './router.js';
import { sseFrame } from './sse.js';

const routes: RoutePattern[] = [
  { method: 'GET', path: '/clusters' },
  { method: 'GET', path: '/clusters/{cluster}/namespaces/{namespace}/zookeepers/{name}' },
  { method: 'DELETE', path: '/clusters/{cluster}/namespaces/{namespace}/zookeepers/{name}' },
  { method: 'POST', path: '/clusters/{cluster}/namespaces/{namespace}/zookeepers/{name}/scale' },
];

describe('matchRoute', () => {
  it('matches method and path, decoding each parameter', () => {
    const match = matchRoute(routes, 'DELETE', '/clusters/east/namespaces/team-a/zookeepers/zk%2Done');
    expect(match).toMatchObject({ route: routes[2], params: { cluster: 'east', namespace: 'team-a', name: 'zk-one' } });
  });

  it('says when the path is served with other methods, and when no route has it', () => {
    expect(matchRoute(routes, 'PUT', '/clusters/east/namespaces/team-a/zookeepers/zk/scale')).toBe('methodNotAllowed');
    expect(matchRoute(routes, 'GET', '/clusters/east/namespaces/team-a/zookeepers')).toBeUndefined();
    expect(matchRoute(routes, 'GET', '/clusters/east/namespaces//zookeepers/zk')).toBeUndefined();
    expect(matchRoute(routes, 'GET', '/clusters/east/namespaces/team-a/zookeepers/%E0%A4%A')).toBeUndefined();
  });

  it('names the parameters of a pattern in order', () => {
    expect(parameterNames('/clusters/{cluster}/namespaces/{namespace}/zookeepers/{name}/scale')).toStrictEqual(['cluster', 'namespace', 'name']);
  });
});

describe('errorAnswer', () => {
  it('passes the API server\'s refusals on with their code, reason and message', () => {
    const forbidden = new KubeApiError(403, 'Forbidden', 'POST', '/apis/x', 'zookeeperscales is forbidden: User "u" cannot create');
    expect(errorAnswer(forbidden)).toStrictEqual({
      code: 403,
      body: { error: { code: 403, reason: 'Forbidden', message: 'zookeeperscales is forbidden: User "u" cannot create' } },
    });
  });

  it('turns an API server failure into 502 and an unknown failure into a 500 without detail', () => {
    expect(errorAnswer(new KubeApiError(503, 'ServiceUnavailable', 'GET', '/x', 'etcd down')).code).toBe(502);
    expect(errorAnswer(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })).code).toBe(502);
    expect(errorAnswer(new Error('secret detail'))).toStrictEqual({
      code: 500,
      body: { error: { code: 500, reason: 'InternalError', message: 'the console failed; see its log' } },
    });
  });

  it('answers a bad request with the fields it names', () => {
    const answer = errorAnswer(badRequest('invalid request', [{ path: 'spec.replicas', problem: 'expected integer' }]));
    expect(answer).toStrictEqual({
      code: 400,
      body: { error: { code: 400, reason: 'BadRequest', message: 'invalid request', fields: [{ path: 'spec.replicas', problem: 'expected integer' }] } },
    });
  });
});

describe('sseFrame', () => {
  it('writes the event type, an id without line breaks and the data as one JSON line', () => {
    expect(sseFrame('MODIFIED', { phase: 'Running', note: 'a\nb' }, '7\n8')).toBe('id: 78\nevent: MODIFIED\ndata: {"phase":"Running","note":"a\\nb"}\n\n');
    expect(sseFrame('snapshot', 1)).toBe('event: snapshot\ndata: 1\n\n');
  });
});

import { describe, expect, it } from 'vitest';
import { ROUTES } from './api/routes.js';
import { API_PREFIX, openApiDocument } from './openapi.js';

describe('openApiDocument', () => {
  const document = openApiDocument(ROUTES) as {
    paths: Record<string, Record<string, { parameters: { name: string }[]; requestBody?: { content: Record<string, { schema: { properties?: object } }> } }>>;
  };

  it('documents every route with its method, path parameters and security: a bearer token or the session cookie', () => {
    for (const route of ROUTES) {
      const operation = document.paths[`${API_PREFIX}${route.path}`]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation?.parameters.map((parameter) => parameter.name)).toStrictEqual([...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]));
    }
    expect(Object.values(document.paths).flatMap((path) => Object.keys(path))).toHaveLength(ROUTES.length);
    expect(document).toMatchObject({ openapi: '3.0.3', security: [{ bearer: [] }, { session: [] }] });
    expect(document.paths[`${API_PREFIX}/session`]?.['post']).toMatchObject({ security: [] });
    expect(document.paths[`${API_PREFIX}/session`]?.['get']).not.toHaveProperty('security');
  });

  it('describes request bodies with the JSON Schema of the zod schemas the handlers validate with', () => {
    const create = document.paths[`${API_PREFIX}/clusters/{cluster}/namespaces/{namespace}/zookeepers`]?.['post'];
    const schema = create?.requestBody?.content['application/json']?.schema;
    expect(schema?.properties).toMatchObject({ spec: { properties: { replicas: { type: 'integer', minimum: 1, maximum: 31 } } } });
    const scale = document.paths[`${API_PREFIX}/clusters/{cluster}/namespaces/{namespace}/zookeepers/{name}/scale`]?.['post'];
    expect(scale?.requestBody?.content['application/json']?.schema.properties).toMatchObject({ replicas: { type: 'integer' } });
  });

  it("documents each member's zxid lag in the members endpoint's and the info's answers", () => {
    const ensemble = `${API_PREFIX}/clusters/{cluster}/namespaces/{namespace}/zookeepers/{name}`;
    const answerOf = (path: string) =>
      (document.paths[path]?.['get'] as { responses: { '2XX': { content: Record<string, { schema: { properties: Record<string, unknown> } }> } } } | undefined)?.responses['2XX']
        .content['application/json']?.schema.properties;
    expect(Object.keys(answerOf(`${ensemble}/members`) ?? {})).toStrictEqual(['zxid', 'members']);
    expect(answerOf(`${ensemble}/members`)?.['members']).toMatchObject({ items: { properties: { zxidLag: {}, zxid: { pattern: '^0x[0-9a-f]{1,16}$' } } } });
    expect(answerOf(ensemble)).toMatchObject({ memberStatus: { items: { properties: { zxidLag: {} } } }, zxid: {} });
  });
});

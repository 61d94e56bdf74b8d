// The OpenAPI 3.0 document of /api/v1, made from the route table, with the request bodies' JSON Schemas made from
// the same zod schemas the handlers validate with, so the document cannot drift from what the server does; answers
// have theirs where one is written down (each member's zxid lag).
import { z } from 'zod';
import type { Route } from './api/context.js';
import { TOKEN_COOKIE } from './http/credentials.js';
import { parameterNames } from './http/router.js';

export const API_PREFIX = '/api/v1';

const ERROR_RESPONSES = {
  '400': { description: 'Bad request: `error.fields` names each rejected field' },
  '401': { description: 'No bearer token (nor session cookie), or the API server did not accept it' },
  '403': { description: 'The API server refused the caller (its message is passed on)' },
  '404': { description: 'No such cluster or object' },
};

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): object {
  return z.toJSONSchema(schema, { io, target: 'openapi-3.0', unrepresentable: 'any' });
}

function jsonSuccess(schema: z.ZodType | undefined): object {
  return schema === undefined ? { description: 'OK (JSON)' } : { description: 'OK (JSON)', content: { 'application/json': { schema: jsonSchemaOf(schema, 'output') } } };
}

function operation(route: Route): object {
  const parameters = parameterNames(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const body =
    route.requestBody === undefined
      ? {}
      : {
          requestBody: {
            required: !route.path.endsWith('/restart'),
            content: { 'application/json': { schema: jsonSchemaOf(route.requestBody, 'input') } },
          },
        };
  const success = route.stream === true ? { content: { 'text/event-stream': {} }, description: 'Server-Sent Events' } : jsonSuccess(route.responseBody);
  const security = route.anonymous === true ? { security: [] } : {};
  return { summary: route.summary, parameters, ...body, ...security, responses: { '2XX': success, ...ERROR_RESPONSES } };
}

export function openApiDocument(routes: readonly Route[]): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    const path = `${API_PREFIX}${route.path}`;
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route) };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'zk-oam console', version: 'v1', description: 'ZooKeeper ensembles of every configured cluster; every call acts as its caller.' },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A Kubernetes bearer token, passed on to the API server.' },
        session: { type: 'apiKey', in: 'cookie', name: TOKEN_COOKIE, description: 'The web page\'s session (POST /session); a non-GET request with it also needs the x-zk-oam-console header.' },
      },
    },
    security: [{ bearer: [] }, { session: [] }],
    paths,
  };
}

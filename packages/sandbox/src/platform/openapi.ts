/**
 * The OpenAPI document of the sandbox's own platform API, generated from the routes it registered: each
 * path with its path parameters, the account-group context (`aid`) where the platform takes it, and the
 * query parameters the sandbox reads. The API explorer lists these on the embedded default.
 */

export interface SandboxRoute {
  method: string;
  url: string;
}

/** Query parameters the sandbox reads, by path (beyond `aid`). */
const QUERY: Record<string, { name: string; description: string; schema: Record<string, unknown> }[]> = {
  '/alerts': [
    {
      name: 'window',
      description: 'A time range such as 12h or 7d',
      schema: { type: 'string', pattern: '^\\d+[smhdw]?$' },
    },
    {
      name: 'startDate',
      description: 'ISO date-time start (with endDate)',
      schema: { type: 'string', format: 'date-time' },
    },
    {
      name: 'endDate',
      description: 'ISO date-time end (with startDate)',
      schema: { type: 'string', format: 'date-time' },
    },
    { name: 'max', description: 'Page size', schema: { type: 'integer' } },
  ],
  '/audit-user-events': [
    { name: 'window', description: 'A time range such as 12h or 7d', schema: { type: 'string' } },
    { name: 'startDate', description: 'ISO date-time start', schema: { type: 'string', format: 'date-time' } },
    { name: 'endDate', description: 'ISO date-time end', schema: { type: 'string', format: 'date-time' } },
    { name: 'max', description: 'Page size', schema: { type: 'integer' } },
  ],
  '/agents': [
    {
      name: 'agentTypes',
      description: 'cloud, enterprise or enterprise-cluster',
      schema: { type: 'array', items: { type: 'string', enum: ['cloud', 'enterprise', 'enterprise-cluster'] } },
    },
    {
      name: 'expand',
      description: 'Sub-resources to include',
      schema: { type: 'array', items: { type: 'string', enum: ['cluster-member', 'test-ids'] } },
    },
  ],
  '/tests': [
    { name: 'expand', description: 'Sub-resources to include', schema: { type: 'array', items: { type: 'string' } } },
  ],
  '/tags': [
    {
      name: 'expand',
      description: 'Sub-resources to include',
      schema: { type: 'array', items: { type: 'string', enum: ['assignments'] } },
    },
  ],
  '/account-groups/{id}': [
    {
      name: 'expand',
      description: 'Sub-resources to include',
      schema: { type: 'array', items: { type: 'string', enum: ['user'] } },
    },
  ],
  '/endpoint/agents': [{ name: 'max', description: 'Page size', schema: { type: 'integer' } }],
};
/** Paths where the platform takes no account-group context. */
const NO_AID = new Set(['/account-groups', '/account-groups/{id}', '/users/current', '/quotas']);

export function sandboxOpenApi(routes: SandboxRoute[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const method = route.method.toLowerCase();
    if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
    const path = route.url.replace(/^.*\/v7/, '').replace(/:([A-Za-z]+)/g, '{$1}') || '/';
    const pathParams = [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((match) => ({
      name: match[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const query = [
      ...(NO_AID.has(path)
        ? []
        : [{ name: 'aid', in: 'query', required: false, description: 'Account group id', schema: { type: 'string' } }]),
      ...(method === 'get'
        ? (QUERY[path] ?? []).map((parameter) => ({ ...parameter, in: 'query', required: false }))
        : []),
    ];
    const segments = path.split('/').filter((segment) => segment && !segment.startsWith('{'));
    const operationId = `${method}${segments.map((segment) => segment.replace(/(^|-)([a-z])/g, (_all, _dash, letter: string) => letter.toUpperCase())).join('')}${pathParams.length ? 'ById' : ''}`;
    paths[path] ??= {};
    paths[path][method] = {
      operationId,
      summary: `${route.method} ${path}`,
      tags: [segments[0] ?? 'root'],
      parameters: [...pathParams, ...query],
      ...(['post', 'put', 'patch'].includes(method)
        ? { requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } } }
        : {}),
      responses: { '200': { description: 'OK' } },
    };
  }
  return {
    openapi: '3.0.1',
    info: { title: 'ThousandEyes API v7 (CE Toolkit sandbox)', version: '7.0.100-sandbox' },
    servers: [{ url: serverUrl }],
    paths,
  };
}

import YAML from 'yaml';
import type { ApiOperation, ApiParameter } from '@ce/contract';

type Json = Record<string, unknown>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** A `#/components/...` reference inside the same document, followed (at most 8 hops). */
function resolve(document: Json, value: unknown): Json {
  let current = value as Json | undefined;
  for (let hops = 0; hops < 8 && current && typeof current.$ref === 'string'; hops++) {
    const pointer = current.$ref.replace(/^#\//, '').split('/');
    current = pointer.reduce<unknown>(
      (node, key) => (node as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      document,
    ) as Json | undefined;
  }
  return current ?? {};
}

function parameterOf(document: Json, raw: unknown): ApiParameter | null {
  const parameter = resolve(document, raw);
  const where = parameter.in;
  if (where !== 'path' && where !== 'query') return null;
  const schema = resolve(document, parameter.schema);
  const items = resolve(document, schema.items);
  const isArray = schema.type === 'array';
  const values = (isArray ? items.enum : schema.enum) as unknown[] | undefined;
  return {
    name: String(parameter.name ?? ''),
    in: where,
    required: where === 'path' || parameter.required === true,
    description:
      String(parameter.description ?? '')
        .trim()
        .split('\n')[0] ?? '',
    type: String((isArray ? items.type : schema.type) ?? 'string'),
    isArray,
    enum: Array.isArray(values) ? values.map(String) : [],
  };
}

/**
 * The operations of an OpenAPI 3 document (JSON or YAML text): method, path, summary, first tag, path and
 * query parameters with their type and choices, and whether a body goes with it.
 */
export function operationsOf(text: string): ApiOperation[] {
  const document = (
    text.trimStart().startsWith('{') ? JSON.parse(text) : YAML.parse(text, { maxAliasCount: 100 })
  ) as Json;
  if (!document || typeof document !== 'object' || typeof document.paths !== 'object')
    throw new Error('The document has no paths: it is not an OpenAPI document');
  const operations: ApiOperation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const parameters = [...shared, ...(Array.isArray(operation.parameters) ? operation.parameters : [])]
        .map((raw) => parameterOf(document, raw))
        .filter((parameter): parameter is ApiParameter => parameter !== null);
      // An operation's own parameter replaces a path-level one of the same name.
      const unique = [
        ...new Map(parameters.map((parameter) => [`${parameter.in}:${parameter.name}`, parameter])).values(),
      ];
      operations.push({
        id: String(operation.operationId ?? `${method} ${path}`),
        method: method.toUpperCase() as ApiOperation['method'],
        path,
        summary: String(operation.summary ?? '').trim(),
        tag: String((operation.tags as unknown[] | undefined)?.[0] ?? path.split('/')[1] ?? ''),
        parameters: unique,
        hasBody: operation.requestBody !== undefined,
      });
    }
  }
  return operations.sort(
    (a, b) => a.tag.localeCompare(b.tag) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method),
  );
}

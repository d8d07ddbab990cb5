import YAML from 'yaml';
import type { ApiOperation, ApiParameter } from '@ce/contract';
import { isRecord, listOf, recordOf } from '../../core/json.js';

type Json = Record<string, unknown>;
/** The methods an operation may have, as a path item names them and as the catalog shows them. */
const METHODS = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
} as const satisfies Record<string, ApiOperation['method']>;

/** A `#/components/...` reference inside the same document, followed (at most 8 hops). */
function resolve(document: Json, value: unknown): Json {
  let current = value;
  for (let hops = 0; hops < 8 && isRecord(current) && typeof current.$ref === 'string'; hops++) {
    const pointer = current.$ref.replace(/^#\//, '').split('/');
    current = pointer.reduce<unknown>(
      (node, key) => (isRecord(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
      document,
    );
  }
  return recordOf(current);
}

function parameterOf(document: Json, raw: unknown): ApiParameter | null {
  const parameter = resolve(document, raw);
  const where = parameter.in;
  if (where !== 'path' && where !== 'query') return null;
  const schema = resolve(document, parameter.schema);
  const items = resolve(document, schema.items);
  const isArray = schema.type === 'array';
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
    enum: listOf(isArray ? items.enum : schema.enum).map(String),
  };
}

/**
 * The operations of an OpenAPI 3 document (JSON or YAML text): method, path, summary, first tag, path and
 * query parameters with their type and choices, and whether a body goes with it.
 */
export function operationsOf(text: string): ApiOperation[] {
  const document: unknown = text.trimStart().startsWith('{')
    ? JSON.parse(text)
    : YAML.parse(text, { maxAliasCount: 100 });
  if (!isRecord(document) || !isRecord(document.paths))
    throw new Error('The document has no paths: it is not an OpenAPI document');
  const operations: ApiOperation[] = [];
  for (const [path, pathItem] of Object.entries(document.paths)) {
    const item = recordOf(pathItem);
    const shared = listOf(item.parameters);
    for (const [method, verb] of Object.entries(METHODS)) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      const parameters = [...shared, ...listOf(operation.parameters)]
        .map((raw) => parameterOf(document, raw))
        .filter((parameter): parameter is ApiParameter => parameter !== null);
      // An operation's own parameter replaces a path-level one of the same name.
      const unique = [
        ...new Map(parameters.map((parameter) => [`${parameter.in}:${parameter.name}`, parameter])).values(),
      ];
      operations.push({
        id: String(operation.operationId ?? `${method} ${path}`),
        method: verb,
        path,
        summary: String(operation.summary ?? '').trim(),
        tag: String(listOf(operation.tags)[0] ?? path.split('/')[1] ?? ''),
        parameters: unique,
        hasBody: operation.requestBody !== undefined,
      });
    }
  }
  return operations.sort(
    (a, b) => a.tag.localeCompare(b.tag) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method),
  );
}

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

type Json = Record<string, unknown>;

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Where the platform's published OpenAPI document is: TE_OPENAPI_SPEC, else ../shared/te-api beside the repository. */
export function findOpenApiDocument(): string | null {
  const candidates = [
    process.env.TE_OPENAPI_SPEC,
    path.resolve(ROOT, '../shared/te-api/openapi/unified-7.0.100/api.yaml'),
  ].filter((candidate): candidate is string => Boolean(candidate));
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

export interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  operation: Json;
}

/**
 * Validates requests and answers against the OpenAPI 3.0 document with Ajv, following the
 * document's own $refs. OpenAPI extras (nullable, discriminator, examples) are honoured or ignored
 * as the OpenAPI specification says.
 */
export class OpenApiValidator {
  readonly document: Json;
  readonly operations: Operation[];
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(file: string) {
    this.document = YAML.parse(readFileSync(file, 'utf8')) as Json;
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, discriminator: false, logger: false });
    addFormats.default(this.ajv);
    // Formats the document names that are not JSON Schema formats: accepted as free text.
    for (const format of ['ip', 'macaddress', 'yyyy-MM-ddTHH:mm[:ss]Z']) this.ajv.addFormat(format, true);
    this.ajv.addKeyword({ keyword: 'example' });
    this.ajv.addSchema(this.document, 'openapi');
    const paths = this.document.paths as Record<string, Record<string, Json>>;
    this.operations = Object.entries(paths).flatMap(([template, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
          operation,
        })),
    );
  }

  /** The operation a request went to; literal paths win over templated ones (/users/current before /users/{id}). */
  find(method: string, pathname: string): Operation | undefined {
    const matches = this.operations.filter(
      (operation) => operation.method === method && operation.pattern.test(pathname),
    );
    return matches.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0))[0];
  }

  private resolve(pointer: string): unknown {
    return pointer
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>(
        (node, segment) => (node as Json | undefined)?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')],
        this.document,
      );
  }

  /** Follows a $ref object to the pointer of the object it names. */
  private pointerOf(pointer: string): string {
    const node = this.resolve(pointer) as Json | undefined;
    return typeof node?.$ref === 'string' ? this.pointerOf(node.$ref) : pointer;
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.cache.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi${pointer}` });
      this.cache.set(pointer, validate);
    }
    return validate;
  }

  private check(pointer: string, contentTypes: string[], body: unknown): string[] {
    const content = this.resolve(`${pointer}/content`) as Json | undefined;
    // A response without `content` leaves its body undescribed: nothing to check.
    if (!content) return [];
    const type = contentTypes.find((candidate) => candidate in content) ?? Object.keys(content)[0];
    if (!type) return [];
    const schemaPointer = `${pointer}/content/${escapePointer(type)}/schema`;
    const validate = this.validator(schemaPointer);
    if (validate(body)) return [];
    return (validate.errors ?? [])
      .slice(0, 8)
      .map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
  }

  validateRequest(operation: Operation, body: unknown): string[] {
    const base = `#/paths/${escapePointer(operation.template)}/${operation.method.toLowerCase()}`;
    if (!operation.operation.requestBody) return body === undefined ? [] : ['the operation takes no body'];
    return this.check(this.pointerOf(`${base}/requestBody`), ['application/json'], body);
  }

  validateResponse(operation: Operation, status: number, contentType: string, body: unknown): string[] {
    const base = `#/paths/${escapePointer(operation.template)}/${operation.method.toLowerCase()}/responses`;
    const responses = this.resolve(base) as Json;
    const key =
      String(status) in responses
        ? String(status)
        : `${String(status)[0]}XX` in responses
          ? `${String(status)[0]}XX`
          : 'default';
    if (!(key in responses)) return [`status ${status} is not documented`];
    const type = contentType.split(';')[0]?.trim() ?? '';
    const problems = this.check(this.pointerOf(`${base}/${key}`), [type], body);
    const content = this.resolve(`${this.pointerOf(`${base}/${key}`)}/content`) as Json | undefined;
    if (content && body !== undefined && !(type in content))
      problems.push(`content type ${type} is not documented (${Object.keys(content).join(', ')})`);
    return problems;
  }
}

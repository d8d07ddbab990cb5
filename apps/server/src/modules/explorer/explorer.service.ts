import { z } from 'zod';
import { EXPLORER_MESSAGES, type ApiOperation, type ExplorerAnswer, type SessionUser } from '@ce/contract';
import { PlatformError, type PlatformClient } from '@ce/platform-client';
import { requireCapability } from '../../core/access.js';
import { AppError } from '../../core/errors.js';
import type { AuditLog } from '../audit/index.js';
import { platformRefusal } from '../customer/customer.service.js';
import { operationsOf } from './openapi-catalog.js';

/** A HAL answer's link to its next page. */
const nextPage = z.object({ _links: z.object({ next: z.object({ href: z.string() }) }) });

/** The published document is large; anything far bigger is not it. */
const MAX_DOCUMENT_BYTES = 30 * 1024 * 1024;
const REFRESH_MS = 60 * 60 * 1000;

export interface ExplorerDeps {
  platform: PlatformClient;
  audit: AuditLog;
  /** Where the OpenAPI document is read from, and the fetch that reaches it (in-process for the sandbox). */
  documentUrl: string;
  fetch?: typeof fetch;
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** A URL as it may be shown: origin and path only (no user, password, query or fragment). */
function shownUrl(address: string): string {
  try {
    const url = new URL(address);
    return `${url.origin}${url.pathname}`;
  } catch {
    return 'the configured address';
  }
}

/**
 * The API explorer: the platform's operations from its published OpenAPI document (read at run time and
 * kept for an hour), and calls made with a customer's token through the paced platform client. Reads are
 * for the Tools group; writes need the apiWrites capability and a confirmation, and are audited.
 */
export class ExplorerService {
  private catalog: { at: number; operations: Promise<ApiOperation[]> } | null = null;

  constructor(private readonly deps: ExplorerDeps) {}

  /** Where the document is read from, as users may see it: origin and path, never credentials or a query. */
  get source(): string {
    return shownUrl(this.deps.documentUrl);
  }

  operations(): Promise<ApiOperation[]> {
    if (!this.catalog || Date.now() - this.catalog.at > REFRESH_MS) {
      const operations = this.load();
      this.catalog = { at: Date.now(), operations };
      // A failed read is not kept: the next request tries again.
      operations.catch(() => {
        if (this.catalog?.operations === operations) this.catalog = null;
      });
    }
    return this.catalog.operations;
  }

  private async load(): Promise<ApiOperation[]> {
    let response: Response;
    try {
      response = await (this.deps.fetch ?? fetch)(this.deps.documentUrl, {
        headers: { accept: 'application/json, application/yaml, text/yaml, */*' },
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      throw new AppError(502, 'document_unreachable', `The API document could not be read from ${this.source}.`);
    }
    if (!response.ok)
      throw new AppError(
        502,
        'document_unreachable',
        `The API document answered ${response.status} at ${this.source}.`,
      );
    const text = await response.text();
    if (text.length > MAX_DOCUMENT_BYTES)
      throw new AppError(502, 'document_too_large', 'The API document is too large.');
    try {
      return operationsOf(text);
    } catch (error) {
      throw new AppError(
        502,
        'document_invalid',
        `The API document could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  async call(
    user: SessionUser,
    input: {
      token: string;
      operationId: string;
      pathParams: Record<string, string>;
      query: Record<string, string>;
      body?: unknown;
      confirm: boolean;
      nextHref?: string;
    },
  ): Promise<ExplorerAnswer> {
    const operation = (await this.operations()).find((candidate) => candidate.id === input.operationId);
    if (!operation) throw new AppError(400, 'unknown_operation', EXPLORER_MESSAGES.unknownOperation);
    const writes = operation.method !== 'GET';
    if (writes) requireCapability(user, 'apiWrites', EXPLORER_MESSAGES.writesNotAllowed);
    if (writes && !input.confirm) throw new AppError(400, 'confirmation_required', EXPLORER_MESSAGES.confirmWrite);

    const { http } = this.deps.platform;
    let url: URL;
    if (input.nextHref) url = new URL(input.nextHref);
    else {
      let path = operation.path;
      for (const parameter of operation.parameters.filter((item) => item.in === 'path')) {
        const value = input.pathParams[parameter.name]?.trim();
        if (!value)
          throw new AppError(400, 'missing_parameter', EXPLORER_MESSAGES.missingPathParameter(parameter.name));
        // encodeURIComponent keeps dots: '..' would climb a level of the platform's paths.
        if (value === '.' || value === '..')
          throw new AppError(400, 'invalid_parameter', EXPLORER_MESSAGES.dotPathParameter(parameter.name));
        path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
      }
      // Only the parameters the document declares go out.
      const declared = new Set(operation.parameters.filter((item) => item.in === 'query').map((item) => item.name));
      const query = Object.fromEntries(
        Object.entries(input.query).filter(([name, value]) => declared.has(name) && value.trim() !== ''),
      );
      url = http.url(path, query);
    }
    const body = writes && operation.hasBody ? input.body : undefined;
    const target = `${operation.method} ${url.pathname}`;
    // A write is audited before it is sent, and again with what came of it: one that times out or dies on
    // the way still leaves its row.
    if (writes) await this.deps.audit.record(user, 'api.write.sent', target, { operationId: operation.id });
    let answer;
    try {
      answer = await http.exchange({ token: input.token }, url, { method: operation.method, body });
    } catch (error) {
      if (writes)
        await this.deps.audit.record(user, 'api.write', target, {
          operationId: operation.id,
          status: error instanceof PlatformError ? error.status : 0,
          error: error instanceof Error ? error.message.slice(0, 300) : 'failed',
        });
      if (error instanceof PlatformError && error.status === 0 && /outside the platform/.test(error.message))
        throw new AppError(400, 'bad_link', 'The next-page link does not belong to the platform API.');
      throw platformRefusal(error);
    }
    if (writes)
      await this.deps.audit.record(user, 'api.write', target, { operationId: operation.id, status: answer.status });
    const next = nextPage.safeParse(answer.body).data?._links.next.href;
    return {
      status: answer.status,
      headers: answer.headers,
      durationMs: Math.round(answer.durationMs),
      body: answer.body ?? null,
      method: operation.method,
      url: url.toString(),
      curl: [
        `curl -X ${operation.method} ${quote(url.toString())}`,
        `-H "Authorization: Bearer $TE_TOKEN"`,
        `-H 'Accept: application/hal+json, application/json'`,
        ...(body === undefined ? [] : [`-H 'Content-Type: application/json'`, `-d ${quote(JSON.stringify(body))}`]),
      ].join(' \\\n  '),
      nextHref: typeof next === 'string' ? next : null,
    };
  }
}

/**
 * A Salesforce REST client for what the time tracker needs: OAuth 2.0 client credentials, SOQL queries
 * (following nextRecordsUrl) and sObject Collections creates (200 records a call, allOrNone false). Direct
 * REST over fetch: three calls do not need a library (decision 0019).
 */

export interface SalesforceConfig {
  /** Where the OAuth token endpoint is: https://login.salesforce.com or the org's My Domain. */
  loginUrl: string;
  clientId: string;
  clientSecret: string;
  apiVersion: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface SaveResult {
  id?: string;
  success: boolean;
  errors: { message: string; statusCode?: string; errorCode?: string; fields?: string[] }[];
}

export class SalesforceError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SalesforceError';
  }
}

/** A value inside a SOQL string literal: backslashes and quotes escaped. */
export const soqlString = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export class SalesforceClient {
  private session: { accessToken: string; instanceUrl: string } | null = null;
  private readonly fetch: typeof fetch;

  constructor(private readonly config: SalesforceConfig) {
    this.fetch = config.fetch ?? fetch;
  }

  /** Rows of a SOQL query, every page. */
  async query<T extends Record<string, unknown>>(soql: string): Promise<T[]> {
    const records: T[] = [];
    let path: string | null = `/services/data/${this.config.apiVersion}/query?q=${encodeURIComponent(soql)}`;
    while (path) {
      const page: { records: T[]; done: boolean; nextRecordsUrl?: string } = await this.call(path, { method: 'GET' });
      records.push(...page.records);
      path = page.done ? null : (page.nextRecordsUrl ?? null);
    }
    return records;
  }

  /** Creates up to 200 records of one type; each record succeeds or fails on its own (allOrNone false). */
  async createMany(type: string, records: Record<string, unknown>[]): Promise<SaveResult[]> {
    if (records.length > 200) throw new Error('sObject Collections take at most 200 records a call');
    return this.call(`/services/data/${this.config.apiVersion}/composite/sobjects`, {
      method: 'POST',
      body: JSON.stringify({
        allOrNone: false,
        records: records.map((record) => ({ attributes: { type }, ...record })),
      }),
    });
  }

  private async authenticate(): Promise<{ accessToken: string; instanceUrl: string }> {
    const response = await this.fetch(`${this.config.loginUrl.replace(/\/$/, '')}/services/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.config.clientId,
        client_secret: this.config.clientSecret,
      }).toString(),
      signal: AbortSignal.timeout(this.config.timeoutMs ?? 30_000),
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, string>;
    if (!response.ok || !body.access_token || !body.instance_url)
      throw new SalesforceError(
        response.status === 400 ? 401 : response.status,
        `Salesforce refused the toolkit's credentials: ${body.error_description ?? body.error ?? response.statusText}`,
      );
    this.session = { accessToken: body.access_token, instanceUrl: body.instance_url.replace(/\/$/, '') };
    return this.session;
  }

  private async call<T>(path: string, init: { method: string; body?: string }, retried = false): Promise<T> {
    const session = this.session ?? (await this.authenticate());
    let response: Response;
    try {
      response = await this.fetch(`${session.instanceUrl}${path}`, {
        method: init.method,
        body: init.body,
        headers: {
          authorization: `Bearer ${session.accessToken}`,
          accept: 'application/json',
          ...(init.body ? { 'content-type': 'application/json' } : {}),
        },
        signal: AbortSignal.timeout(this.config.timeoutMs ?? 60_000),
      });
    } catch (error) {
      throw new SalesforceError(0, `Salesforce did not answer: ${(error as Error).message}`);
    }
    // An expired session is renewed once.
    if (response.status === 401 && !retried) {
      this.session = null;
      return this.call(path, init, true);
    }
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const first = Array.isArray(body) ? (body[0] as { message?: string; errorCode?: string } | undefined) : undefined;
      throw new SalesforceError(
        response.status,
        first?.message ? `${first.errorCode ?? 'ERROR'}: ${first.message}` : `Salesforce answered ${response.status}`,
      );
    }
    return body as T;
  }
}

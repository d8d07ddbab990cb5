import { fromTemplate } from './support/data-dir-template.js';
import { startEntry, type StartedProcess } from './support/started-process.js';

/** A browser-like caller over real HTTP: cookies kept, the anti-forgery header echoed. */
export class HttpClient {
  private readonly cookies = new Map<string, string>();
  /** The headers of the last answer (a 503's Retry-After...). */
  lastHeaders: Headers | null = null;
  constructor(public base: string) {}

  async call(
    method: string,
    url: string,
    body?: unknown,
    extra: { signal?: AbortSignal; headers?: Record<string, string> } = {},
  ) {
    const response = await this.send(method, url, body, extra);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  /** A GET whose answer is a file: its bytes. */
  async download(url: string): Promise<{ status: number; bytes: Buffer }> {
    const response = await this.send('GET', url);
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  private async send(
    method: string,
    url: string,
    body?: unknown,
    extra: { signal?: AbortSignal; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = {
      ...extra.headers,
      cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET') headers['x-csrf-token'] = this.cookies.get('ce_csrf') ?? '';
    const response = await fetch(`${this.base}${url}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: extra.signal,
    });
    this.lastHeaders = response.headers;
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) this.cookies.set(name.trim(), value.join('='));
    }
    return response;
  }
}

/**
 * Starts the server on `dataDir`. An empty folder first gets a copy of the run's template (`fromTemplate`); a folder
 * that does not exist yet is made by the server itself, as on a first start (`data-dir.int.test.ts`).
 */
export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<StartedProcess> {
  await fromTemplate(dataDir);
  const settings = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: '', ...env };
  return startEntry('server', settings, { name: 'the server', timeoutMs: 90_000 });
}

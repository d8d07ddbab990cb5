import { spawn, type ChildProcess } from 'node:child_process';
import { fromTemplate } from './support/data-dir-template.js';
import { entryArgs } from './support/server-bundle.js';

/** A browser-like caller over real HTTP: cookies kept, the anti-forgery header echoed. */
export class HttpClient {
  private readonly cookies = new Map<string, string>();
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
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ process: ChildProcess; url: string }> {
  await fromTemplate(dataDir);
  const child = spawn(process.execPath, entryArgs('server'), {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ process: child, url: match[1] });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
  });
}

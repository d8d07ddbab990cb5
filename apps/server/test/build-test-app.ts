import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, vi } from 'vitest';
import { DEFAULT_SCENARIO, type World } from '@ce/sandbox';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, type ReportRequest } from '@ce/contract';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import type { DatabaseTarget } from '../src/core/database.js';
import { giveBack, takeEngine } from './support/pglite-engines.js';
import { setPdfThreadPriorityStep } from '../src/report-kit/pdf.js';

// The apps built here render their PDFs at the test process's CPU priority, not 10 below it: the suite's machine is
// saturated by its other test files (load 16-19 on two cores), and a PDF thread 10 steps down waited there for idle
// CPU longer than a report's deadline. Products still run it 10 down (decision 0032).
setPdfThreadPriorityStep(0);

export type DatabaseKind = 'pglite' | 'postgres';

/** Integration tests run on PGlite always, and on PostgreSQL too when DATABASE_URL is set (CI sets it). */
export const DATABASES: DatabaseKind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * Suites about what a request answers (the role matrix, sessions, the explorer, what a report says) run on PGlite
 * only. PGlite is PostgreSQL's own engine, so their SQL means the same on both; what PostgreSQL adds (connections
 * at once, locks, idle transactions, several processes) is what the suites on `DATABASES` and the PostgreSQL
 * suites (scale-out, pause, instances, lease clocks) are about. Keeps CI within its 15 minutes.
 */
export const ANSWER_SUITE_DATABASES: DatabaseKind[] = ['pglite'];

export const DEMO_PASSWORD = 'demo-password';

export interface TestApp extends BuiltApp {
  /** Every log line the app wrote, as raw JSON text. */
  logs: string[];
  /** Where its data is: another instance may be started on the same PostgreSQL database. */
  target: DatabaseTarget;
  close(): Promise<void>;
}

/** A throwaway PostgreSQL database on the server DATABASE_URL points at, dropped afterwards. */
async function createScratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL ?? '');
  const name = `ce_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base.toString() });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * The clock of a date-sensitive test: it starts at TEST_CLOCK (an ISO instant; the suite runs these tests
 * just after and just before midnight UTC, see vitest.config.ts) and moves on with real time, so timers,
 * leases and pacing behave as they do in production while every date is fixed.
 */
export function testClock(start = process.env.TEST_CLOCK ?? '2026-03-02T09:30:00Z'): () => Date {
  const origin = Date.parse(start);
  if (Number.isNaN(origin)) throw new Error(`TEST_CLOCK is not an ISO instant: ${start}`);
  const began = performance.now();
  return () => new Date(origin + Math.round(performance.now() - began));
}

let snapshot: Blob | undefined;
/** The migrated database every in-memory PGlite starts from (made once per run by support/pglite-snapshot.ts). */
function pgliteSnapshot(): Blob {
  snapshot ??= new Blob([readFileSync(inject('pgliteSnapshot'))]);
  return snapshot;
}

/** Builds the real app in-process, on a fresh database of the given kind, with its logs captured. */
export async function createTestApp(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  options: { clock?: () => Date; sameDatabaseAs?: TestApp } = {},
): Promise<TestApp> {
  const logs: string[] = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-int-'));
  // A second instance on the same database (PostgreSQL only) shares it and leaves dropping it to the first.
  const shared = options.sameDatabaseAs?.target.kind === 'postgres' ? options.sameDatabaseAs.target : null;
  const scratch = kind === 'postgres' && !shared ? await createScratchDatabase() : null;
  const engine = kind === 'pglite' ? await takeEngine(pgliteSnapshot) : null;
  const database: DatabaseTarget =
    shared ??
    (scratch ? { kind: 'postgres', url: scratch.url } : { kind: 'pglite', dataDir: null, engine: engine ?? undefined });
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    DEMO_PASSWORD,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    SECRETS_DIR: `${dataDir}.keys`,
    // Tests sign in hundreds of times from one address; the limit has a test of its own.
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
    ...env,
  });
  const built = await buildApp(config, { database, logDestination, clock: options.clock }).catch(async (error) => {
    if (engine) await giveBack(engine);
    throw error;
  });
  return {
    ...built,
    logs,
    target: database,
    async close() {
      await built.app.close();
      if (engine) await giveBack(engine);
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(`${dataDir}.keys`, { recursive: true, force: true });
    },
  };
}

function cookiesFrom(response: LightMyRequestResponse): Record<string, string> {
  return Object.fromEntries(response.cookies.map((cookie) => [cookie.name, cookie.value]));
}

/**
 * A browser-like caller: keeps cookies between calls and echoes the anti-forgery cookie in the
 * header on state-changing calls, as the web app does.
 */
export class TestClient {
  readonly cookies: Record<string, string> = {};

  constructor(private readonly app: TestApp['app']) {}

  async request(options: InjectOptions & { csrf?: boolean }): Promise<LightMyRequestResponse> {
    if (!this.cookies[CSRF_COOKIE]) await this.prime();
    const method = (options.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = { ...(options.headers as Record<string, string> | undefined) };
    // Over https (a proxy's x-forwarded-proto) the anti-forgery cookie carries the __Host- prefix.
    const csrf = this.cookies[`__Host-${CSRF_COOKIE}`] ?? this.cookies[CSRF_COOKIE] ?? '';
    if (method !== 'GET' && options.csrf !== false && headers[CSRF_HEADER] === undefined) headers[CSRF_HEADER] = csrf;
    const response = await this.app.inject({ ...options, headers, cookies: { ...this.cookies } });
    for (const cookie of response.cookies) {
      if (cookie.value === '' || (cookie.maxAge !== undefined && cookie.maxAge <= 0)) delete this.cookies[cookie.name];
      else this.cookies[cookie.name] = cookie.value;
    }
    return response;
  }

  private async prime(): Promise<void> {
    const response = await this.app.inject({ method: 'GET', url: '/api/app-info' });
    Object.assign(this.cookies, cookiesFrom(response));
  }

  async signIn(email: string, password = DEMO_PASSWORD): Promise<LightMyRequestResponse> {
    return this.request({ method: 'POST', url: '/api/session', payload: { email, password } });
  }

  get sessionId(): string | undefined {
    return this.cookies[SESSION_COOKIE];
  }
}

/** A client already signed in as the given account. */
export async function signedInClient(app: TestApp['app'], email: string): Promise<TestClient> {
  const client = new TestClient(app);
  const response = await client.signIn(email);
  if (response.statusCode !== 200) throw new Error(`sign-in as ${email} failed: ${response.body}`);
  return client;
}

export interface SandboxCustomer {
  /** The sandbox's Org Admin token. */
  token: string;
  /** Its organization and account groups, as the account-groups read names them. */
  organization: { id: string; name: string };
  groups: { aid: string; accountGroupName: string }[];
}

/**
 * Starts a bulk tests run for the customer as the web app does (`extra`: the rest of the request, such as
 * `onConflict`); the answer is the caller's to check.
 */
export function startBulkTests(
  client: TestClient,
  customer: SandboxCustomer,
  accountGroups: SandboxCustomer['groups'],
  templates: unknown[],
  extra: Record<string, unknown> = {},
): Promise<LightMyRequestResponse> {
  return client.request({
    method: 'POST',
    url: '/api/bulk/runs',
    payload: {
      kind: 'tests',
      token: customer.token,
      organization: customer.organization,
      accountGroups,
      templates,
      ...extra,
    },
  });
}

/** What a tool's request needs about the customer: the Org Admin token, read through the app as a user would. */
export async function sandboxCustomer(testApp: TestApp, client: TestClient): Promise<SandboxCustomer> {
  const token = testApp.sandbox?.platform.world.tokens.find((candidate) => candidate.kind === 'org-admin')?.token;
  if (!token) throw new Error('the sandbox is mounted in tests');
  const response = await client.request({ method: 'POST', url: '/api/account-groups', payload: { token } });
  const listed = response.json<{
    accountGroups: { aid: string; accountGroupName: string; organizationId: string; organizationName: string }[];
  }>().accountGroups;
  const first = listed[0];
  if (!first) throw new Error(`the token sees no account group: ${response.body}`);
  return {
    token,
    organization: { id: first.organizationId, name: first.organizationName },
    groups: listed.map(({ aid, accountGroupName }) => ({ aid, accountGroupName })),
  };
}

/** Waits (vi.waitFor) until a report or a bulk run has finished, and returns what it read last. */
export function untilFinished<T extends { status: string }>(read: () => Promise<T>, timeout = 60_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await read();
      expect(value.status, 'finished').toMatch(/^(done|failed)$/);
      return value;
    },
    { timeout, interval: 200 },
  );
}

export { bgpTemplate } from './support/templates.js';

/**
 * Requests a report of `kind` for the sandbox customer as `client` (every account group unless given) and
 * waits until it has finished.
 */
export async function requestReport(
  client: TestClient,
  customer: SandboxCustomer,
  kind: string,
  options: {
    options?: Record<string, unknown>;
    accountGroups?: SandboxCustomer['groups'];
    token?: string;
    /** How long to wait for it, in ms (a health check reading a week of results takes longer than most). */
    timeout?: number;
  } = {},
): Promise<ReportRequest> {
  const created = await client.request({
    method: 'POST',
    url: '/api/reports',
    payload: {
      kind,
      token: options.token ?? customer.token,
      organization: customer.organization,
      accountGroups: options.accountGroups ?? customer.groups,
      options: options.options ?? {},
    },
  });
  expect(created.statusCode, created.body).toBe(202);
  return untilFinished(
    () =>
      client
        .request({ method: 'GET', url: `/api/reports/${created.json<{ id: string }>().id}` })
        .then((response) => response.json<ReportRequest>()),
    options.timeout,
  );
}

/** The bytes of the report's file whose name ends with `suffix` (`inline` serves HTML for the preview). */
export async function reportFile(
  client: TestClient,
  report: Pick<ReportRequest, 'id' | 'artifacts'>,
  suffix: string,
  inline = false,
): Promise<Buffer> {
  const artifact = report.artifacts.find((candidate) => candidate.filename.endsWith(suffix));
  if (!artifact)
    throw new Error(`no ${suffix} among ${report.artifacts.map((candidate) => candidate.filename).join(', ')}`);
  const url = `/api/reports/${report.id}/artifacts/${artifact.id}${inline ? '?inline=1' : ''}`;
  return (await client.request({ method: 'GET', url })).rawPayload;
}

/** A multipart body as a browser's FormData sends it: text fields, and files by field name. */
export async function multipartBody(
  fields: Record<string, string>,
  files: Record<string, { bytes: Uint8Array; name: string; type?: string }>,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const [key, file] of Object.entries(files))
    form.append(key, new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? '' }), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

/** A report kind's integration suite: the app, a signed-in user, the sandbox customer, the sandbox's world. */
export interface ReportSuite {
  readonly app: TestApp;
  readonly client: TestClient;
  readonly customer: SandboxCustomer;
  /** The sandbox platform's world (the sandbox is always mounted in tests). */
  world(): World;
}

/**
 * Sets up a report suite once per file: before the tests, an app on `database` (with `clock` when dates
 * matter), `email` signed in, and the sandbox customer; after them, the app closed.
 */
export function reportSuite(
  database: DatabaseKind,
  email: string,
  options: { clock?: () => Date; rateLimitPerMinute?: number } = {},
): ReportSuite {
  let app: TestApp | undefined;
  let client: TestClient | undefined;
  let customer: SandboxCustomer | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the report suite is used before its set-up ran');
    return value;
  };
  beforeAll(async () => {
    app = await createTestApp(database, {}, options.clock ? { clock: options.clock } : {});
    // Reports pace themselves at the limit as everywhere; a high one keeps a suite quick. It is set before the
    // first call: a window the product has already counted keeps its count until it ends.
    if (options.rateLimitPerMinute)
      app.sandbox?.platform.setScenario({ ...DEFAULT_SCENARIO, rateLimitPerMinute: options.rateLimitPerMinute });
    client = await signedInClient(app.app, email);
    customer = await sandboxCustomer(app, client);
  });
  afterAll(async () => {
    await app?.close();
  });
  return {
    get app() {
      return ready(app);
    },
    get client() {
      return ready(client);
    },
    get customer() {
      return ready(customer);
    },
    world: () => {
      const world = ready(app).sandbox?.platform.world;
      if (!world) throw new Error('the sandbox is mounted in tests');
      return world;
    },
  };
}

import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { hashPassword } from '../src/modules/users/passwords.js';
import { HttpClient } from './child-server.js';
import { localeForRole } from '../src/modules/users/users.service.js';
import type { Entry } from './support/server-bundle.js';
import { startEntry } from './support/started-process.js';

const root = path.resolve(import.meta.dirname, '../../..');

/** Ends a bench that needs PostgreSQL, saying so, when DATABASE_URL is not set. */
export function exitWithoutPostgres(bench: string): void {
  if (process.env.DATABASE_URL) return;
  console.error(
    `${bench} needs PostgreSQL: set DATABASE_URL (for example postgres://postgres:postgres@127.0.0.1:5432/postgres)`,
  );
  process.exit(2);
}

/** A process of the deployment: its name (INSTANCE_ID), address and what it printed. */
export interface ClusterProcess {
  name: string;
  process: ChildProcess;
  url: string;
  output: () => string;
}

/** CLUSTER_CPU_PROFILE_DIR set: every process (and thread) writes a CPU profile there, in a folder per process. */
const PROFILE_DIR = process.env.CLUSTER_CPU_PROFILE_DIR;
const profiled = (name: string): Record<string, string> =>
  PROFILE_DIR ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.join(PROFILE_DIR, name)}` } : {};

/** Every process started, to be killed at the end whether or not it started. */
const spawned = new Set<ChildProcess>();

/** Starts an entry point of the deployment and waits for its address. */
async function startProcess(name: string, entry: Entry, env: Record<string, string>): Promise<ClusterProcess> {
  const started = await startEntry(
    entry,
    { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...profiled(name), ...env },
    {
      name,
      cwd: root,
      onSpawn: (child) => {
        spawned.add(child);
        child.once('exit', () => spawned.delete(child));
      },
    },
  );
  return { name, ...started };
}

/**
 * A deployment on one machine, as docs/operating.md describes it: the standalone sandbox (`npm run sandbox`)
 * standing in for the platform and Webex, one PostgreSQL database, and as many web instances
 * (WORKERS_ENABLED=false) and workers as asked, each a process of its own sharing the same keys.
 */
export class Cluster {
  sandbox!: ClusterProcess;
  private database = '';
  private readonly dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-cluster-'));
  private readonly botToken = randomBytes(18).toString('base64url');
  private readonly keys = {
    REPORTS_KEY: randomBytes(32).toString('base64'),
    COOKIE_SECRET: randomBytes(32).toString('base64url'),
  };

  constructor(private readonly options: { jobLeaseMs: number; sandbox?: Record<string, string> }) {}

  get databaseUrl(): string {
    return this.database;
  }

  /** The sandbox and a fresh database; instances come with `start`. */
  async open(): Promise<void> {
    const base = new URL(process.env.DATABASE_URL ?? '');
    const name = `ce_cluster_${randomBytes(6).toString('hex')}`;
    await this.admin(`create database ${name}`);
    const url = new URL(base.toString());
    url.pathname = `/${name}`;
    this.database = url.toString();
    this.sandbox = await startProcess('sandbox', 'sandbox', {
      SANDBOX_PORT: '0',
      WEBEX_BOT_TOKEN: this.botToken,
      ...this.options.sandbox,
    });
  }

  /** A request to the standalone sandbox (its paths under `/sandbox`). */
  sandboxCall(url: string, init?: RequestInit): Promise<Response> {
    return fetch(`${this.sandbox.url}/sandbox${url}`, init);
  }

  /** Sets the platform stand-in's scenario: its limit and window, latency, faults. */
  async scenario(changes: Record<string, unknown>): Promise<void> {
    const answer = await this.sandboxCall('/te/scenario', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(changes),
    });
    if (answer.status !== 200) throw new Error(`the sandbox refused the scenario: ${await answer.text()}`);
  }

  /** The sandbox's Org Admin token and its organization. */
  async orgAdmin(): Promise<{ token: string; organizationId: string }> {
    const { tokens } = (await (await this.sandboxCall('/te/tokens')).json()) as {
      tokens: { token: string; kind: string; organizationId: string }[];
    };
    const admin = tokens.find((candidate) => candidate.kind === 'org-admin');
    if (!admin) throw new Error('the sandbox has no Org Admin token');
    return admin;
  }

  /** A new TAM account signed in through `instances` in turn (a round-robin balancer in front of them). */
  async signedIn(instances: ClusterProcess[], email: string, password: string): Promise<RoundRobinClient> {
    await this.addUser(email, 'TAM', password);
    const browser = new RoundRobinClient(instances);
    await browser.call('GET', '/api/app-info');
    const answer = await browser.call('POST', '/api/session', { email, password });
    if (answer.status !== 200) throw new Error(`sign-in as ${email} failed: ${answer.status}`);
    return browser;
  }

  /** Starts instances at the same moment; each runs the migrations' start-up (one of them migrates). */
  async start(instances: { name: string; worker: boolean; env?: Record<string, string> }[]): Promise<ClusterProcess[]> {
    return Promise.all(
      instances.map(({ name, worker, env }) =>
        startProcess(name, 'server', {
          ...this.keys,
          DATABASE_URL: this.database,
          DATABASE_POOL_SIZE: '4',
          DATA_DIR: path.join(this.dataDir, name),
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          INSTANCE_ID: name,
          WORKERS_ENABLED: String(worker),
          JOB_LEASE_MS: String(this.options.jobLeaseMs),
          PLATFORM_API_URL: `${this.sandbox.url}/sandbox/te/v7`,
          WEBEX_API_URL: `${this.sandbox.url}/sandbox/webex`,
          WEBEX_BOT_TOKEN: this.botToken,
          ...env,
        }),
      ),
    );
  }

  /** An account to sign in with (accounts are made by an administrator on PostgreSQL; here, directly). */
  async addUser(email: string, role: 'TAM' | 'Super User', password: string): Promise<void> {
    await this.query(`insert into users (email, name, locale, password_hash) values ($1, $2, $3, $4)`, [
      email,
      email,
      localeForRole(role),
      await hashPassword(password),
    ]);
  }

  async query<T>(text: string, values: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.database });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /**
   * Stops the cluster's database as an outage would (`away` true): no connection is let in any more and every one
   * held is ended by the server; `away` false lets connections in again. The admin connection (DATABASE_URL) does it.
   */
  async databaseAway(away: boolean): Promise<void> {
    const name = new URL(this.database).pathname.slice(1);
    await this.admin(`alter database ${name} with allow_connections ${away ? 'false' : 'true'}`);
    if (away) await this.admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);
  }

  async kill(instance: ClusterProcess): Promise<void> {
    if (instance.process.exitCode !== null) return;
    const exited = new Promise((resolve) => instance.process.once('exit', resolve));
    instance.process.kill('SIGKILL');
    await exited;
  }

  async close(): Promise<void> {
    await Promise.all(
      [...spawned].map(
        (child) =>
          new Promise((resolve) => {
            child.once('exit', resolve);
            // A profiled process stops on its own (writing its profile), or is killed after a while.
            if (PROFILE_DIR) {
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
            } else child.kill('SIGKILL');
          }),
      ),
    );
    if (this.database) await this.databaseAway(false);
    if (this.database)
      await this.admin(`drop database if exists ${new URL(this.database).pathname.slice(1)} with (force)`);
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async admin(statement: string): Promise<void> {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }
}

/**
 * A browser over real HTTP that sends each request to the next instance in turn (a round-robin load
 * balancer): one cookie jar, the anti-forgery header echoed, whichever instance answers.
 */
export class RoundRobinClient {
  private readonly browser = new HttpClient('');
  private next = 0;
  readonly answeredBy: string[] = [];

  constructor(private readonly instances: ClusterProcess[]) {}

  async call<T = Record<string, unknown>>(
    method: string,
    url: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    this.browser.base = this.nextInstance();
    return (await this.browser.call(method, url, body)) as { status: number; body: T };
  }

  /** The headers of the last answer. */
  get lastHeaders(): Headers | null {
    return this.browser.lastHeaders;
  }

  /** A file's bytes (GET). */
  async download(url: string): Promise<Buffer> {
    this.browser.base = this.nextInstance();
    const { status, bytes } = await this.browser.download(url);
    if (status !== 200) throw new Error(`GET ${url} answered ${status}: ${bytes.toString().slice(0, 300)}`);
    return bytes;
  }

  private nextInstance(): string {
    const instance = this.instances[this.next++ % this.instances.length];
    if (!instance) throw new Error('no instance to call');
    this.answeredBy.push(instance.name);
    return instance.url;
  }
}

/**
 * bench:load - one instance past its knee (issue 56, decision 0036). One instance in a process of its own (embedded
 * defaults, or PostgreSQL with the standalone sandbox when DATABASE_URL is set), SESSIONS signed-in sessions, a few
 * health checks made so the lists have something in them; then signed-in GET calls (the session, notifications,
 * My Reports, a report, a customer's timeline, the dashboard's figures) sent at a fixed rate (open loop: a request
 * is sent when it is due, whatever the earlier ones do, and timed from then) by a load generator in another process
 * with keep-alive connections. The rate rises in stages of STAGE_S seconds until a stage's p95 passes KNEE_P95_MS or
 * it is not all answered: the knee is the last stage that was. Then stages at 1.5, 2 and 3 times the knee, PAST_S
 * seconds each. Every figure comes from the same run, so a busy machine moves the knee, not the ratios.
 *
 * knee-per-s          = the highest rate answered in full (no 503, no error) with p95 <= KNEE_P95_MS.
 * p95-ms-at-knee      = the 95th percentile of that stage.
 * shed-share-past-knee = the share of requests answered 503 "busy" in the stages past the knee.
 * p95-ms-past-knee    = the 95th percentile of the requests answered 200 there (those let in).
 * rss-growth-mb       = the instance's largest resident memory during the stages, over its own after the warm-up.
 * Last line: `load: knee-per-s=… p95-ms-at-knee=… shed-share-past-knee=… p95-ms-past-knee=… rss-growth-mb=…`
 * (goals: p95 at the knee <= 200, past it p95 <= 1000 with the rest shed as 503, RSS growth <= 100).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CSRF_COOKIE, CSRF_HEADER } from '@ce/contract';
import { percentile, type Stage, type StageResult } from './load-generator.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const SESSIONS = Number(process.env.BENCH_LOAD_SESSIONS ?? 20);
const REPORTS = Number(process.env.BENCH_LOAD_REPORTS ?? 3);
const STAGE_S = Number(process.env.BENCH_LOAD_STAGE_S ?? 8);
const PAST_S = Number(process.env.BENCH_LOAD_PAST_S ?? 15);
const START_PER_S = Number(process.env.BENCH_LOAD_START_PER_S ?? 20);
const STEP = 1.2;
const KNEE_P95_MS = 200;
const PAST = [1.5, 2, 3];
const EMAIL = 'bench@load.test';
const PASSWORD = 'a long bench password';

/** A call sent again while the instance answers 503 "busy", after the wait it asks for: as a browser would. */
async function patiently(send: () => Promise<Response>): Promise<Response> {
  let answer = await send();
  while (answer.status === 503) {
    await sleep(Number(answer.headers.get('retry-after') ?? 1) * 1000);
    answer = await send();
  }
  return answer;
}

/** A signed-in session's cookies, as a browser keeps them. */
async function signIn(origin: string, email: string, password: string): Promise<string> {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', ...value] = pair.split('=');
      cookies.set(name.trim(), value.join('='));
    }
  };
  const header = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  keep(await patiently(() => fetch(`${origin}/api/app-info`)));
  const answer = await patiently(() =>
    fetch(`${origin}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: header(), [CSRF_HEADER]: cookies.get(CSRF_COOKIE) ?? '' },
      body: JSON.stringify({ email, password }),
    }),
  );
  if (answer.status !== 200) throw new Error(`sign-in as ${email} failed: ${answer.status} ${await answer.text()}`);
  keep(answer);
  return header();
}

/** What the instance holds in memory, in MB (Linux). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** The instance's CPU time so far, in clock ticks (Linux: a hundredth of a second). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
}

interface Instance {
  origin: string;
  pid: number;
  /** Where the platform stand-in is (its tokens), and who signs in. */
  sandboxUrl: string;
  email: string;
  password: string;
  /** What it printed (warnings and errors: it logs at warn). */
  output(): string;
  close(): Promise<void>;
}

const METRICS_TOKEN = 'the load bench reads the instance metrics';
const SERVER_ENV = { LOG_LEVEL: 'warn', PUBLIC_RATE_LIMIT_PER_MINUTE: '100000', METRICS_TOKEN };

/** What the instance says of itself (its /metrics): time in requests it worked, and in garbage collection. */
interface InstanceTimes {
  requests: number;
  requestSeconds: number;
  gcSeconds: number;
  majorGcSeconds: number;
}
async function instanceTimes(origin: string): Promise<InstanceTimes> {
  const text = await (
    await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const sum = (pattern: RegExp) =>
    text
      .split('\n')
      .filter((line) => pattern.test(line))
      .reduce((total, line) => total + Number(line.split(' ').at(-1) ?? 0), 0);
  return {
    requests: sum(/^http_request_duration_seconds_count\{(?!.*route="\/metrics")/),
    requestSeconds: sum(/^http_request_duration_seconds_sum\{(?!.*route="\/metrics")/),
    gcSeconds: sum(/^nodejs_gc_duration_seconds_sum\{/),
    majorGcSeconds: sum(/^nodejs_gc_duration_seconds_sum\{kind="major"/),
  };
}

/** The instance: embedded defaults (demo mode, its sandbox inside), or PostgreSQL beside the standalone sandbox. */
async function startInstance(): Promise<Instance> {
  if (process.env.DATABASE_URL) {
    const { Cluster } = await import('../apps/server/test/cluster.js');
    const cluster = new Cluster({ jobLeaseMs: 60_000 });
    await cluster.open();
    const [instance] = await cluster.start([
      { name: 'load', worker: true, env: { ...SERVER_ENV, DATABASE_POOL_SIZE: '10' } },
    ]);
    if (!instance?.process.pid) throw new Error('the instance did not start');
    await cluster.addUser(EMAIL, 'TAM', PASSWORD);
    return {
      origin: instance.url,
      pid: instance.process.pid,
      sandboxUrl: `${cluster.sandbox.url}/sandbox`,
      email: EMAIL,
      password: PASSWORD,
      output: instance.output,
      close: () => cluster.close(),
    };
  }
  const { startEntry } = await import('../apps/server/test/support/started-process.js');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-bench-load-'));
  const started = await startEntry(
    'server',
    { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ...SERVER_ENV },
    { name: 'the instance', cwd: path.resolve(import.meta.dirname, '..') },
  );
  if (!started.process.pid) throw new Error('the instance did not start');
  return {
    origin: started.url,
    pid: started.process.pid,
    sandboxUrl: `${started.url}/sandbox`,
    email: 'tam@demo.local',
    password: 'demo-password',
    output: started.output,
    async close() {
      const exited = new Promise((resolve) => started.process.once('exit', resolve));
      started.process.kill('SIGKILL');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(`${dataDir}.keys`, { recursive: true, force: true });
    },
  };
}

/** A few health checks, made and finished, so My Reports, a report and the customer's timeline read something. */
async function seed(instance: Instance, cookie: string): Promise<string[]> {
  const call = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const csrf = /ce_csrf=([^;]+)/.exec(cookie)?.[1] ?? '';
    const send = () =>
      fetch(`${instance.origin}${url}`, {
        method,
        headers: { cookie, [CSRF_HEADER]: csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const answer = await patiently(send);
    if (answer.status >= 300) throw new Error(`${method} ${url} answered ${answer.status}: ${await answer.text()}`);
    return (await answer.json()) as T;
  };
  const { tokens } = (await (await fetch(`${instance.sandboxUrl}/te/tokens`)).json()) as {
    tokens: { token: string; kind: string; organizationId: string }[];
  };
  const admin = tokens.find((candidate) => candidate.kind === 'org-admin');
  if (!admin) throw new Error('the sandbox has no Org Admin token');
  const { accountGroups } = await call<{
    accountGroups: { aid: string; accountGroupName: string; organizationId: string; organizationName: string }[];
  }>('POST', '/api/account-groups', { token: admin.token });
  const group = accountGroups.find((candidate) => candidate.organizationId === admin.organizationId);
  if (!group) throw new Error('the Org Admin token reads no account group of its organization');
  const organization = { id: group.organizationId, name: group.organizationName };
  const ids: string[] = [];
  for (let index = 0; index < REPORTS; index++) {
    const created = await call<{ id: string }>('POST', '/api/reports', {
      kind: 'ahc-v7',
      token: admin.token,
      organization,
      accountGroups: [{ aid: group.aid, accountGroupName: group.accountGroupName }],
      options: {},
    });
    ids.push(created.id);
  }
  const until = Date.now() + 300_000;
  for (const id of ids) {
    while (Date.now() < until) {
      const { status } = await call<{ status: string }>('GET', `/api/reports/${id}`);
      if (status === 'done' || status === 'failed') break;
      await sleep(1_000);
    }
  }
  return [
    '/api/session',
    '/api/notifications',
    '/api/reports',
    `/api/customers/${encodeURIComponent(organization.id)}/timeline`,
    '/api/session',
    '/api/notifications',
    ...(ids[0] ? [`/api/reports/${ids[0]}`] : []),
    '/api/dashboard/metrics',
  ];
}

async function main(): Promise<void> {
  const instance = await startInstance();
  // The load generator, in a process of its own (the instance's CPU is not the generator's).
  const generator: ChildProcess = fork(path.join(import.meta.dirname, 'load-generator.ts'), { stdio: 'inherit' });
  const run = (stage: Omit<Stage, 'origin' | 'cookies' | 'urls'>, base: Pick<Stage, 'origin' | 'cookies' | 'urls'>) =>
    new Promise<StageResult>((resolve) => {
      generator.once('message', (result) => resolve(result as StageResult));
      generator.send({ ...base, ...stage });
    });
  let peakMb = 0;
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, rssMb(instance.pid));
  }, 250);
  try {
    const cookies: string[] = [];
    for (let index = 0; index < SESSIONS; index++)
      cookies.push(await signIn(instance.origin, instance.email, instance.password));
    const urls = await seed(instance, cookies[0] ?? '');
    const base = { origin: instance.origin, cookies, urls };
    // The instance's CPU since the last stage, in cores.
    let cpuAt = { ticks: cpuTicks(instance.pid), time: performance.now() };
    const cpu = () => {
      const now = { ticks: cpuTicks(instance.pid), time: performance.now() };
      const cores = (now.ticks - cpuAt.ticks) / 100 / ((now.time - cpuAt.time) / 1000);
      cpuAt = now;
      return cores.toFixed(2);
    };
    // What the instance worked (requests let in, their time inside it) and its garbage collection, since the last stage.
    let timesAt = await instanceTimes(instance.origin);
    const inside = async () => {
      const now = await instanceTimes(instance.origin);
      const worked = now.requests - timesAt.requests;
      const line = `worked=${worked} inside-mean-ms=${worked ? Math.round(((now.requestSeconds - timesAt.requestSeconds) * 1000) / worked) : 0} gc-ms=${Math.round((now.gcSeconds - timesAt.gcSeconds) * 1000)} major-gc-ms=${Math.round((now.majorGcSeconds - timesAt.majorGcSeconds) * 1000)}`;
      timesAt = now;
      return line;
    };
    const describe = async (label: string, perSecond: number, result: StageResult) =>
      console.log(
        `${label} ${Math.round(perSecond)}/s: sent=${result.sent} ok=${result.ok} shed=${result.shed} other=${result.other}${
          result.other ? ` ${JSON.stringify(result.others)}` : ''
        } outstanding=${result.peakOutstanding} late-ms=${Math.round(result.lateMs)} cpu=${cpu()} p50-ms=${Math.round(percentile(result.okMs, 0.5))} p95-ms=${Math.round(percentile(result.okMs, 0.95))} shed-p95-ms=${Math.round(percentile(result.shedMs, 0.95))} rss-mb=${Math.round(rssMb(instance.pid))} ${await inside()}`,
      );

    // Warm-up: code paths compiled, caches and pools filled; the memory after it is the baseline.
    await describe('warm-up', START_PER_S, await run({ perSecond: START_PER_S, seconds: 5 }, base));
    await sleep(1_000);
    const baselineMb = rssMb(instance.pid);
    peakMb = baselineMb;

    let knee = 0;
    let kneeP95 = 0;
    let perSecond = START_PER_S;
    for (; perSecond < 5_000; perSecond *= STEP) {
      const passes = (result: StageResult) => result.ok === result.sent && percentile(result.okMs, 0.95) <= KNEE_P95_MS;
      let result = await run({ perSecond, seconds: STAGE_S }, base);
      await describe('stage', perSecond, result);
      // A stage is run again before it ends the climb: on a shared machine one pause (another process, a full GC)
      // can fail a stage the instance answers in full.
      if (!passes(result)) {
        result = await run({ perSecond, seconds: STAGE_S }, base);
        await describe('again', perSecond, result);
      }
      const p95 = percentile(result.okMs, 0.95);
      // A machine too busy for the first stage: the climb starts lower.
      if (!passes(result) && knee === 0 && perSecond / 2 >= 5) {
        perSecond /= 2 * STEP;
        continue;
      }
      if (!passes(result)) break;
      knee = perSecond;
      kneeP95 = p95;
    }
    if (knee === 0)
      throw new Error(`even ${Math.round(perSecond)}/s was not answered in time: the machine is too busy`);

    const past: StageResult[] = [];
    for (const factor of PAST) {
      const result = await run({ perSecond: knee * factor, seconds: PAST_S }, base);
      await describe(`past ${factor}x`, knee * factor, result);
      past.push(result);
    }
    const sent = past.reduce((sum, result) => sum + result.sent, 0);
    const shed = past.reduce((sum, result) => sum + result.shed, 0);
    const other = past.reduce((sum, result) => sum + result.other, 0);
    const okMs = past.flatMap((result) => result.okMs);
    const told = instance
      .output()
      .split('\n')
      .filter((line) => line.includes('the instance is busy')).length;
    console.log(`past the knee: sent=${sent} ok=${okMs.length} shed=${shed} other=${other} busy-lines=${told}`);
    console.log(
      `load: knee-per-s=${Math.round(knee)} p95-ms-at-knee=${Math.round(kneeP95)} shed-share-past-knee=${(shed / sent).toFixed(2)} p95-ms-past-knee=${Math.round(percentile(okMs, 0.95))} rss-growth-mb=${Math.round(peakMb - baselineMb)}`,
    );
  } finally {
    clearInterval(sampler);
    generator.kill();
    await instance.close();
  }
}

await main();

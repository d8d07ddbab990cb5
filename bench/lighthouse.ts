/**
 * bench:lighthouse - Lighthouse's default run (mobile: a mid-range phone on slow 4G, simulated) of
 * /login and of /home/dashboard signed in, served by the real product on its embedded defaults from the
 * production build, in Debian's Chromium. Each page is measured three times and the median is kept
 * (Lighthouse varies a few points from run to run). Before that, the weight of the script /login
 * loads, gzipped, against its 150 KB limit.
 *
 * Last line: `lighthouse: login-perf=<n> login-a11y=<n> dashboard-perf=<n> dashboard-a11y=<n>`
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';

const root = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const SCRIPT_LIMIT_BYTES = 150 * 1024;
const port = Number(process.env.LIGHTHOUSE_PORT ?? 3197);
const origin = `http://127.0.0.1:${port}`;

// The production build of the web app (rebuilt only when its sources changed).
const built = spawnSync(process.execPath, [path.join(root, 'scripts/build-web.mjs')], { stdio: 'inherit' });
if (built.status !== 0) throw new Error('the web build failed');

/**
 * Every script /login loads before it can paint: what the page the server serves for /login names (the entry, what
 * it imports, and the sign-in page's own scripts), gzipped.
 */
async function loginScriptBytes(): Promise<number> {
  const dist = path.join(root, 'apps/web/dist');
  const html = await (await fetch(`${origin}/login`)).text();
  const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1] ?? '');
  return scripts.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length, 0);
}

// A server left on the port (a bench that died) would be measured instead of this build: refuse to start.
const taken = await fetch(`${origin}/readyz`).catch(() => null);
if (taken) throw new Error(`something already answers on ${origin}: stop it, or set LIGHTHOUSE_PORT to a free port`);

// The product on embedded defaults (PGlite, the sandbox, demo accounts) in a throwaway data folder.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-bench-lighthouse-'));
const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
  },
});
// However the bench ends (Chromium failing to start throws outside the try), the server ends with it.
process.on('exit', () => server.kill('SIGTERM'));
const stop = () => {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}.keys`, { recursive: true, force: true });
};

async function ready(): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt++) {
    const answer = await fetch(`${origin}/readyz`).catch(() => null);
    if (answer?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not start');
}

/** Signs a demo account in as the browser would, and returns the cookies of its session. */
async function signIn(email: string): Promise<{ name: string; value: string; url: string }[]> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const equals = pair.indexOf('=');
      jar.set(pair.slice(0, equals).trim(), pair.slice(equals + 1));
    }
  };
  keep(await fetch(`${origin}/api/app-info`));
  const csrf = [...jar.entries()].find(([name]) => name.endsWith('ce_csrf'))?.[1] ?? '';
  const cookie = () => [...jar.entries()].map(([name, value]) => `${name}=${value}`).join('; ');
  const answer = await fetch(`${origin}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf), cookie: cookie() },
    body: JSON.stringify({ email, password: process.env.DEMO_PASSWORD ?? 'demo-password' }),
  });
  if (!answer.ok) throw new Error(`sign-in failed: ${answer.status} ${await answer.text()}`);
  keep(answer);
  const check = await fetch(`${origin}/api/session`, { headers: { cookie: cookie() } });
  if (!check.ok) throw new Error(`the session was not kept: ${check.status}`);
  return [...jar.entries()].map(([name, value]) => ({ name, value, url: origin }));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

let chrome: chromeLauncher.LaunchedChrome | undefined;
try {
  await ready();
  const scriptBytes = await loginScriptBytes();
  console.log(
    `login script: ${(scriptBytes / 1024).toFixed(1)} KB gzipped, limit ${SCRIPT_LIMIT_BYTES / 1024} KB, ratio ${(
      scriptBytes / SCRIPT_LIMIT_BYTES
    ).toFixed(2)}`,
  );
  const cookies = await signIn('tam@demo.local');
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const tab = (await browser.pages())[0] ?? (await browser.newPage());
  const cdp = await tab.createCDPSession();

  /**
   * A signed-in page keeps its cookies (Lighthouse would clear them with the rest of the storage), so
   * each run clears the browser's cache itself: every run loads the page cold, as the signed-out one does.
   */
  async function measure(page: string, signedIn = false) {
    const performance: number[] = [];
    const accessibility: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      if (signedIn) await cdp.send('Network.clearBrowserCache');
      const result = await lighthouse(`${origin}${page}`, {
        port: chrome?.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        disableStorageReset: signedIn,
      });
      const categories = result?.lhr.categories;
      if (!categories || result.lhr.runtimeError) throw new Error(`Lighthouse failed on ${page}`);
      if (result.lhr.finalDisplayedUrl !== `${origin}${page}`)
        throw new Error(`${page} ended on ${result.lhr.finalDisplayedUrl}`);
      performance.push(Math.round((categories.performance?.score ?? 0) * 100));
      accessibility.push(Math.round((categories.accessibility?.score ?? 0) * 100));
      const audits = result.lhr.audits;
      const metric = (id: string) => audits[id]?.displayValue ?? '?';
      console.log(
        `${page} run ${run + 1}: performance ${performance.at(-1)}, accessibility ${accessibility.at(-1)} ` +
          `(FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, ` +
          `TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')})`,
      );
      for (const audit of Object.values(audits))
        if (
          audit.score !== null &&
          audit.score < 1 &&
          result.lhr.categories.accessibility?.auditRefs.some((ref) => ref.id === audit.id)
        )
          for (const item of (audit.details as { items?: { node?: { snippet?: string } }[] } | undefined)?.items ?? [])
            console.log(`  accessibility: ${audit.id}: ${item.node?.snippet ?? audit.title}`);
    }
    return { performance: median(performance), accessibility: median(accessibility) };
  }

  const login = await measure('/login');
  for (const cookie of cookies) await cdp.send('Network.setCookie', cookie);
  const dashboard = await measure('/home/dashboard', true);
  // A customer's page: the demo world's Acme Corporation.
  const listed = (await (await fetch(`${origin}/sandbox/te/tokens`)).json()) as {
    tokens: { kind: string; organizationId: string; organizationName: string }[];
  };
  const acme = listed.tokens.find((token) => token.kind === 'org-admin' && token.organizationName.startsWith('Acme'));
  if (!acme) throw new Error('the demo world has Acme Corporation');
  const customer = await measure(`/home/customers/${acme.organizationId}`, true);
  console.log(
    `lighthouse: login-perf=${login.performance} login-a11y=${login.accessibility} ` +
      `dashboard-perf=${dashboard.performance} dashboard-a11y=${dashboard.accessibility} ` +
      `customer-perf=${customer.performance} customer-a11y=${customer.accessibility}`,
  );
  await browser.disconnect();
} finally {
  chrome?.kill();
  stop();
}

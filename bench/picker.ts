/**
 * bench:picker - the account-group picker with 10,000 groups in Chromium: the time from a keystroke in
 * the search box to the painted, filtered list. Beside it, in the same run, the same filter rendering
 * every match (no virtualisation) as the baseline.
 */
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { build } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
const outDir = mkdtempSync(path.join(os.tmpdir(), 'ce-bench-picker-'));
await build({
  // The web app's own configuration (React, Tailwind), pointed at the benchmark page.
  configFile: path.join(root, 'apps/web/vite.config.ts'),
  root: path.join(root, 'bench/picker'),
  logLevel: 'warn',
  build: { outDir, emptyOutDir: true },
});

const server = createServer((request, response) => {
  const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
  const file = path.join(outDir, pathname === '/' ? 'index.html' : pathname);
  const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html';
  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': type }).end(content);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
});

const QUERIES = ['customer 0', 'emea', '12', 'data center', 'lab', 'customer 099', 'apac', '777'];

/** The measurement runs inside the page (bench/picker/main.tsx). */
async function measure(page: Page): Promise<{ samples: number[]; shown: string }> {
  const result = (await page.evaluate(`window.measurePicker(${JSON.stringify(QUERIES)})`)) as {
    samples: number[];
    shown: number;
  };
  return { samples: result.samples, shown: String(result.shown) };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

const results: Record<string, number[]> = {};
const shown: Record<string, string> = {};
for (const variant of ['plain', 'virtualised']) {
  const page = await browser.newPage();
  // The plain list re-renders ten thousand rows a keystroke: give it the time it needs.
  page.setDefaultTimeout(180_000);
  await page.goto(`${origin}/?count=10000&variant=${variant}`);
  await page.getByLabel('Search account groups').waitFor();
  const measured = await measure(page);
  results[variant] = measured.samples;
  shown[variant] = measured.shown;
  await page.close();
}
await browser.close();
server.close();
rmSync(outDir, { recursive: true, force: true });

const virtualised = results.virtualised ?? [];
const plain = results.plain ?? [];
console.log(`picker-bench: 10,000 account groups, ${virtualised.length} keystrokes measured per variant`);
console.log(
  `  plain list (baseline): p50 ${percentile(plain, 50).toFixed(1)} ms, p95 ${percentile(plain, 95).toFixed(1)} ms`,
);
console.log(
  `  virtualised (product): p50 ${percentile(virtualised, 50).toFixed(1)} ms, p95 ${percentile(virtualised, 95).toFixed(1)} ms`,
);
console.log(
  `  rows in the DOM for "customer 099" (100 matches): plain ${shown.plain}, virtualised ${shown.virtualised}`,
);
console.log(`  baseline/product at p95: ${(percentile(plain, 95) / percentile(virtualised, 95)).toFixed(1)}x`);
console.log(
  `picker: filter-ms=${percentile(virtualised, 50).toFixed(1)} p95=${percentile(virtualised, 95).toFixed(1)}`,
);

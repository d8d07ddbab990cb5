import type { ChildProcess } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BulkRun, ReportRequest } from '@ce/contract';
import { TokenVault } from '../src/core/token-vault.js';
import { bgpTemplate, untilFinished } from './build-test-app.js';
import { HttpClient, startServer } from './child-server.js';

/** Every file under `dir`, with its mode. */
function walk(dir: string): { file: string; mode: number; isDirectory: boolean }[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    const stat = lstatSync(file);
    const entry = { file, mode: stat.mode & 0o777, isDirectory: stat.isDirectory() };
    return stat.isDirectory() ? [entry, ...walk(file)] : [entry];
  });
}

const BASE64_KEY = /[A-Za-z0-9+/]{43}=/g;
/**
 * A sealed copy of `token`: version, key id, IV, tag, then the ciphertext, which is as long as the token
 * (AES-GCM), so exactly that many base64url characters: bytes that follow it in a page are not part of it.
 */
const sealedOf = (token: string) =>
  new RegExp(
    `v1\\.[0-9a-f]{12}\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{${Math.ceil((Buffer.byteLength(token) * 4) / 3)}}`,
    'g',
  );

describe('the data folder, as an attacker with a copy of it sees it', () => {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'ce-data-'));
  const dataDir = path.join(parent, 'data');
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(parent, { recursive: true, force: true });
  });

  it('after a report and a bulk run: readable by no one else, and no key inside it opens a token', async () => {
    const server = await startServer(dataDir);
    children.push(server.process);
    const client = new HttpClient(server.url);
    await client.call('GET', '/api/app-info');
    await client.call('POST', '/api/session', { email: 'tam@demo.local', password: 'demo-password' });
    const { token } = (await client.call('GET', '/sandbox/te/tokens')).body.tokens[0];
    const groups = (await client.call('POST', '/api/account-groups', { token })).body.accountGroups;
    const organization = { id: groups[0].organizationId, name: groups[0].organizationName };
    const chosen = groups.slice(0, 2).map((group: { aid: string; accountGroupName: string }) => ({
      aid: group.aid,
      accountGroupName: group.accountGroupName,
    }));

    const report = await client.call('POST', '/api/reports', {
      kind: 'alerts-config',
      token,
      organization,
      accountGroups: chosen,
      options: {},
    });
    const run = await client.call('POST', '/api/bulk/runs', {
      kind: 'tests',
      token,
      organization,
      accountGroups: chosen,
      templates: [bgpTemplate('Data folder check')],
    });
    expect([report.status, run.status]).toEqual([202, 202]);
    const reportDone = await untilFinished(
      async () => (await client.call('GET', `/api/reports/${report.body.id}`)).body as ReportRequest,
    );
    const runDone = await untilFinished(
      async () => (await client.call('GET', `/api/bulk/runs/${run.body.id}`)).body as BulkRun,
    );
    expect([reportDone.status, runDone.status]).toEqual(['done', 'done']);
    server.process.kill('SIGTERM');
    await new Promise((resolve) => server.process.once('exit', resolve));

    // Nothing in the folder is open to other users of the machine.
    const entries = walk(dataDir);
    expect(entries.length).toBeGreaterThan(100);
    expect(lstatSync(dataDir).mode & 0o077).toBe(0);
    expect(entries.filter((entry) => (entry.mode & 0o077) !== 0).map((entry) => entry.file)).toEqual([]);

    // Every key-shaped value in the folder, and every sealed copy of a token the database pages still hold.
    const keys = new Set<string>();
    const sealed = new Set<string>();
    for (const entry of entries.filter((candidate) => !candidate.isDirectory)) {
      const text = readFileSync(entry.file).toString('latin1');
      expect(text.includes(token), `${entry.file} holds the token in clear`).toBe(false);
      for (const match of text.matchAll(BASE64_KEY)) keys.add(match[0]);
      for (const match of text.matchAll(sealedOf(token))) sealed.add(match[0]);
    }
    const opened = (vault: TokenVault) =>
      [...sealed].filter((value) => {
        try {
          return vault.open(value) === token;
        } catch {
          return false;
        }
      });
    for (const key of keys) {
      if (Buffer.from(key, 'base64').length === 32)
        expect(opened(new TokenVault(Buffer.from(key, 'base64')))).toEqual([]);
    }
    // Deleted rows linger in the database pages and the WAL: the copies are there, but the key is not.
    expect(sealed.size).toBeGreaterThan(0);
    // It lives beside the folder: with it, those copies do open (so the scan found the real thing).
    const keyFile = JSON.parse(readFileSync(`${dataDir}.keys/token-keys.json`, 'utf8')) as { current: string };
    expect(opened(TokenVault.fromBase64(keyFile.current)).length).toBeGreaterThan(0);
    expect(lstatSync(`${dataDir}.keys`).mode & 0o077).toBe(0);
    expect(lstatSync(`${dataDir}.keys/token-keys.json`).mode & 0o077).toBe(0);
  }, 180_000);
});

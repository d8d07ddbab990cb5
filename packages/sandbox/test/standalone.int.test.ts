import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

describe('npm run sandbox: the stand-ins alone on a port', () => {
  let child: ChildProcess;
  let address = '';

  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'packages/sandbox/src/main.ts')], {
      env: { PATH: process.env.PATH, SANDBOX_PORT: '0', SANDBOX_RATE_LIMIT: '3' },
      cwd: root,
    });
    address = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`the sandbox did not start: ${output}`)), 30_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /running at (http:\/\/[^\s]+)\/sandbox/.exec(output);
        if (found?.[1]) {
          clearTimeout(timer);
          resolve(found[1]);
        }
      });
      child.on('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${output}`)));
    });
  }, 60_000);
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('serves the platform with its rate limit, and counts per organization what it accepted and refused', async () => {
    const { tokens } = (await (await fetch(`${address}/sandbox/te/tokens`)).json()) as {
      tokens: { token: string; kind: string; organizationId: string }[];
    };
    const admin = tokens.find((token) => token.kind === 'org-admin');
    if (!admin) throw new Error('the sandbox lists an Org Admin token');
    const statuses: number[] = [];
    for (let call = 0; call < 5; call++)
      statuses.push(
        (
          await fetch(`${address}/sandbox/te/v7/account-groups`, {
            headers: { authorization: `Bearer ${admin.token}` },
          })
        ).status,
      );
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const stats = (await (await fetch(`${address}/sandbox/te/stats`)).json()) as {
      organizations: { orgId: string; accepted: number; refused429: number }[];
    };
    expect(stats.organizations).toContainEqual({ orgId: admin.organizationId, accepted: 3, refused429: 2 });
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

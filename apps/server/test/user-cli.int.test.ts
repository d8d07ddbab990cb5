import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUserCommand } from '../src/cli/user-cli.js';
import { createTestApp, TestClient, type TestApp } from './build-test-app.js';

describe('the account CLI', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { DEMO_MODE: 'false' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  const run = (...args: string[]) => runUserCommand(args, testApp.services.users);

  it('adds an account whose temporary password signs in', async () => {
    const output = await run('add', 'Jane.Doe@Example.com', '--role', 'tam', '--name', 'Jane Doe');
    expect(output).toContain('Created jane.doe@example.com (TAM)');
    const temporaryPassword = /Temporary password \(shown once\): (\S+)/.exec(output)?.[1] ?? '';
    expect(temporaryPassword).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[^A-Za-z0-9]).{16,}$/);
    const client = new TestClient(testApp.app);
    const response = await client.signIn('jane.doe@example.com', temporaryPassword);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ challenge: 'NEW_PASSWORD_REQUIRED', session: expect.any(String) });
    const confirmed = await client.request({
      method: 'POST',
      url: '/api/session/new-password',
      payload: { session: response.json().session, newPassword: 'Brand-new-pass-1' },
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().user).toMatchObject({ role: 'TAM', name: 'Jane Doe' });
  });

  it('lists, changes roles, disables and enables', async () => {
    await run('add', 'ops@example.com', '--role', 'Support');
    expect(await run('list')).toMatch(/ops@example\.com\s+Support\s+active/);
    expect(await run('set-role', 'ops@example.com', 'Super User')).toBe('ops@example.com is now Super User.');
    expect(await run('disable', 'ops@example.com')).toBe('ops@example.com is disabled.');
    expect(await run('list')).toMatch(/ops@example\.com\s+Super User\s+disabled/);
    expect(await run('enable', 'ops@example.com')).toBe('ops@example.com is enabled.');
  });

  it('explains bad input', async () => {
    await expect(run('add', 'x@example.com', '--role', 'Wizard')).rejects.toThrow(/Unknown role "Wizard"/);
    await expect(run('add', 'not-an-email', '--role', 'TAM')).rejects.toThrow(/not an email address/);
    await expect(run('add', 'jane.doe@example.com', '--role', 'TAM')).rejects.toThrow(/already exists/);
    await expect(run('disable', 'ghost@example.com')).rejects.toThrow(/No account for ghost@example.com/);
    await expect(run('frobnicate')).rejects.toThrow(/Unknown command/);
  });
});

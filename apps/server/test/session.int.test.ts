import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@ce/contract';
import { hashPassword } from '../src/modules/users/passwords.js';
import { UsersRepository } from '../src/modules/users/users.repository.js';
import { createTestApp, ANSWER_SUITE_DATABASES, signedInClient, TestClient, type TestApp } from './build-test-app.js';

describe.each(ANSWER_SUITE_DATABASES)('sign-in and sessions (%s)', (kind) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp(kind);
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('signs in a demo account and reports the user with its role', async () => {
    const client = new TestClient(testApp.app);
    const response = await client.signIn('TAM@demo.local');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: expect.objectContaining({ email: 'tam@demo.local', role: 'TAM', locale: 'TAM', name: 'Taylor TAM' }),
    });
    const cookie = response.cookies.find((item) => item.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const session = await client.request({ method: 'GET', url: '/api/session' });
    expect(session.json()).toMatchObject({ user: { email: 'tam@demo.local' } });
  });

  it('gives the role User to an account without a locale', async () => {
    const client = await signedInClient(testApp.app, 'user@demo.local');
    const session = await client.request({ method: 'GET', url: '/api/session' });
    expect(session.json()).toMatchObject({ user: { role: 'User', locale: null } });
  });

  it('refuses a wrong password with one message that does not say whether the account exists', async () => {
    const wrongPassword = await new TestClient(testApp.app).signIn('tam@demo.local', 'not-the-password');
    const noAccount = await new TestClient(testApp.app).signIn('nobody@demo.local', 'not-the-password');
    expect(wrongPassword.statusCode).toBe(401);
    expect(noAccount.statusCode).toBe(401);
    expect(wrongPassword.json().error.message).toBe(noAccount.json().error.message);
  });

  it('rejects empty credentials with the spec messages', async () => {
    const client = new TestClient(testApp.app);
    const response = await client.request({
      method: 'POST',
      url: '/api/session',
      payload: { email: '', password: '' },
    });
    expect(response.statusCode).toBe(400);
    const messages = response.json().error.fields.map((field: { message: string }) => field.message);
    expect(messages).toEqual(expect.arrayContaining(['Username cannot be empty', 'Password cannot be empty']));
  });

  it('refuses signing in while signed in', async () => {
    const client = await signedInClient(testApp.app, 'pmo@demo.local');
    const again = await client.signIn('pmo@demo.local');
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_signed_in');
  });

  it('refuses a state change without the anti-forgery header', async () => {
    const client = await signedInClient(testApp.app, 'adoption@demo.local');
    const response = await client.request({ method: 'DELETE', url: '/api/session', csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('csrf_failed');
    expect((await client.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(200);
  });

  it('signs out everywhere: every session of the user ends, other users keep theirs', async () => {
    const laptop = await signedInClient(testApp.app, 'proserv@demo.local');
    const phone = await signedInClient(testApp.app, 'proserv@demo.local');
    const colleague = await signedInClient(testApp.app, 'support@demo.local');

    const response = await laptop.request({ method: 'DELETE', url: '/api/session' });
    expect(response.statusCode).toBe(200);
    expect(response.json().endedSessions).toBeGreaterThanOrEqual(2);

    expect((await laptop.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    expect((await phone.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    expect((await colleague.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(200);
  });

  it('refuses a disabled account and ends its open sessions', async () => {
    const client = await signedInClient(testApp.app, 't3@demo.local');
    await testApp.services.users.setDisabled('t3@demo.local', true);
    expect((await client.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    const again = await new TestClient(testApp.app).signIn('t3@demo.local');
    expect(again.statusCode).toBe(403);
    await testApp.services.users.setDisabled('t3@demo.local', false);
  });

  it('purges sessions past their lifetime (the scheduled clean-up job)', async () => {
    const client = await signedInClient(testApp.app, 'superuser@demo.local');
    await testApp.database.sql.executeSql(
      "update sessions set expires_at = now() - interval '1 minute' where user_id = (select id from users where email = 'superuser@demo.local')",
    );
    expect(await testApp.services.auth.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect((await client.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
  });

  it('does not store the session secret: only its hash is in the database', async () => {
    const client = await signedInClient(testApp.app, 'engineering@demo.local');
    const { rows } = await testApp.database.sql.executeSql('select id_hash from sessions');
    const stored = (rows as { id_hash: string }[]).map((row) => row.id_hash);
    expect(client.sessionId).toBeTruthy();
    expect(stored).not.toContain(client.sessionId);
  });
});

describe('demo accounts when DEMO_MODE=false', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { DEMO_MODE: 'false' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('does not create them', async () => {
    expect(await testApp.services.users.list()).toEqual([]);
  });

  it('refuses a demo account even if one exists in the database', async () => {
    await new UsersRepository(testApp.database.db).insert({
      email: 'tam@demo.local',
      passwordHash: await hashPassword('demo-password'),
      locale: 'TAM',
      isDemo: true,
    });
    const response = await new TestClient(testApp.app).signIn('tam@demo.local');
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toMatch(/demo accounts are disabled/i);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, TestClient, type TestApp } from './build-test-app.js';

const codeFrom = (text: string) => /code is (\d{6})/.exec(text)?.[1] ?? '';

describe('identity flows', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { SIGN_IN_MAX_FAILURES: '4' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  const outbox = () => testApp.sandbox?.mail.messages ?? [];

  it('publishes the password policy for the forms', async () => {
    const info = (await testApp.app.inject({ url: '/api/app-info' })).json();
    expect(info.passwordPolicy).toEqual({ minLength: 8, lowercase: true, uppercase: true, number: true, symbol: true });
    expect(info).toMatchObject({ passwordResetEnabled: true, sso: { enabled: false } });
  });

  it('invites a user (Super User), who must set a new password at first sign-in; all audited', async () => {
    const admin = await signedInClient(testApp.app, 'superuser@demo.local');
    const invited = await admin.request({
      method: 'POST',
      url: '/api/users',
      payload: { email: 'new.tam@example.com', role: 'TAM', name: 'New Tam' },
    });
    expect(invited.statusCode).toBe(201);
    const { temporaryPassword, user } = invited.json();

    const newcomer = new TestClient(testApp.app);
    const first = await newcomer.signIn('new.tam@example.com', temporaryPassword);
    expect(first.json()).toEqual({ challenge: 'NEW_PASSWORD_REQUIRED', session: expect.any(String) });
    expect(newcomer.sessionId).toBeUndefined();

    const weak = await newcomer.request({
      method: 'POST',
      url: '/api/session/new-password',
      payload: { session: first.json().session, newPassword: 'short' },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.message).toMatch(/at least 8 characters/);
    const done = await newcomer.request({
      method: 'POST',
      url: '/api/session/new-password',
      payload: { session: first.json().session, newPassword: 'Fresh-start-42' },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().user).toMatchObject({ email: 'new.tam@example.com', role: 'TAM' });
    const again = await newcomer.request({
      method: 'POST',
      url: '/api/session/new-password',
      payload: { session: first.json().session, newPassword: 'Other-pass-42' },
    });
    expect(again.statusCode).toBe(409);

    const demoted = await admin.request({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      payload: { role: 'Support' },
    });
    expect(demoted.json().user.role).toBe('Support');
    const disabled = await admin.request({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      payload: { disabled: true },
    });
    expect(disabled.json().user.disabled).toBe(true);
    expect((await newcomer.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    const self = (await admin.request({ method: 'GET', url: '/api/session' })).json().user;
    expect(
      (await admin.request({ method: 'PATCH', url: `/api/users/${self.id}`, payload: { disabled: true } })).statusCode,
    ).toBe(400);

    const log = (await admin.request({ method: 'GET', url: '/api/audit-log' })).json().entries;
    expect(log.map((entry: { action: string }) => entry.action).slice(0, 3)).toEqual([
      'user.disabled',
      'user.role_changed',
      'user.invited',
    ]);
    expect(log[0]).toMatchObject({ actorEmail: 'superuser@demo.local', target: 'new.tam@example.com' });
  });

  it('resets a password with a mailed code that works once, and never says whether an account exists', async () => {
    const anonymous = new TestClient(testApp.app);
    const known = await anonymous.request({
      method: 'POST',
      url: '/api/password-reset',
      payload: { email: 'pmo@demo.local' },
    });
    const unknown = await anonymous.request({
      method: 'POST',
      url: '/api/password-reset',
      payload: { email: 'ghost@demo.local' },
    });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual(unknown.json());
    const mail = outbox()
      .filter((message) => message.to === 'pmo@demo.local')
      .at(-1);
    expect(outbox().some((message) => message.to === 'ghost@demo.local')).toBe(false);
    const code = codeFrom(mail?.text ?? '');
    expect(code).toMatch(/^\d{6}$/);

    const session = await signedInClient(testApp.app, 'pmo@demo.local');
    const wrong = await anonymous.request({
      method: 'POST',
      url: '/api/password-reset/confirm',
      payload: { email: 'pmo@demo.local', code: code === '000000' ? '111111' : '000000', newPassword: 'Reset-pass-77' },
    });
    expect(wrong.statusCode).toBe(400);
    const ok = await anonymous.request({
      method: 'POST',
      url: '/api/password-reset/confirm',
      payload: { email: 'pmo@demo.local', code, newPassword: 'Reset-pass-77' },
    });
    expect(ok.statusCode).toBe(200);
    const reused = await anonymous.request({
      method: 'POST',
      url: '/api/password-reset/confirm',
      payload: { email: 'pmo@demo.local', code, newPassword: 'Reset-pass-78' },
    });
    expect(reused.statusCode).toBe(400);
    expect((await session.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    expect((await new TestClient(testApp.app).signIn('pmo@demo.local', 'Reset-pass-77')).statusCode).toBe(200);
  });

  it('changes a password, ending the other sessions but not this one; lists and ends sessions', async () => {
    const laptop = await signedInClient(testApp.app, 'adoption@demo.local');
    const phone = await signedInClient(testApp.app, 'adoption@demo.local');
    const listed = (await laptop.request({ method: 'GET', url: '/api/account/sessions' })).json().sessions;
    expect(listed.length).toBeGreaterThanOrEqual(2);
    expect(listed.filter((session: { current: boolean }) => session.current)).toHaveLength(1);
    const other = listed.find((session: { current: boolean }) => !session.current);
    expect((await laptop.request({ method: 'DELETE', url: `/api/account/sessions/${other.id}` })).statusCode).toBe(200);
    expect((await phone.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);

    const tablet = await signedInClient(testApp.app, 'adoption@demo.local');
    const wrongOld = await laptop.request({
      method: 'PUT',
      url: '/api/account/password',
      payload: { oldPassword: 'nope', newPassword: 'Changed-pass-9' },
    });
    expect(wrongOld.statusCode).toBe(400);
    const changed = await laptop.request({
      method: 'PUT',
      url: '/api/account/password',
      payload: { oldPassword: 'demo-password', newPassword: 'Changed-pass-9' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await laptop.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(200);
    expect((await tablet.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
  });

  it('slows down failed sign-ins, then locks the account with a clear message', async () => {
    const client = new TestClient(testApp.app);
    const statuses: number[] = [];
    const started = Date.now();
    for (let attempt = 0; attempt < 4; attempt++)
      statuses.push((await client.signIn('engineering@demo.local', `wrong-${attempt}`)).statusCode);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250 + 500);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const locked = await client.signIn('engineering@demo.local');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.message).toMatch(/^Too many failed sign-in attempts\. Try again in 15 minutes\.$/);
    const { rows } = await testApp.database.sql.executeSql(
      "select type from security_events where email = 'engineering@demo.local'",
    );
    expect((rows as { type: string }[]).map((row) => row.type)).toEqual(
      expect.arrayContaining(['sign_in_failed', 'sign_in_locked', 'sign_in_refused_locked']),
    );
  });

  it('writes no password, code or session id to the logs of these flows', async () => {
    const all = testApp.logs.join('\n');
    const secrets = [
      'demo-password',
      'Fresh-start-42',
      'Reset-pass-77',
      'Changed-pass-9',
      'wrong-0',
      ...outbox().map((message) => codeFrom(message.text)),
    ];
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(5);
      expect(all).not.toContain(secret);
    }
    const { rows } = await testApp.database.sql.executeSql('select * from security_events');
    const events = JSON.stringify(rows);
    for (const secret of secrets) expect(events).not.toContain(secret);
  });
});

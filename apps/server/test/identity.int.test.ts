import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RESET_ANSWER_FLOOR_MS } from '../src/modules/identity/identity.service.js';
import { createTestApp, signedInClient, TestClient, type TestApp } from './build-test-app.js';

const CODE = /code is ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/;
const codeFrom = (text: string) => CODE.exec(text)?.[1] ?? '';

describe('identity flows', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { SIGN_IN_MAX_FAILURES: '4' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  const outbox = () => testApp.sandbox?.mail.messages ?? [];
  /** The latest code mailed to `to` after `count` earlier ones (the mail leaves after the answer). */
  const nextCode = async (to: string, count: number) => {
    const mail = await vi.waitFor(() => {
      const messages = outbox().filter((message) => message.to === to);
      expect(messages.length).toBeGreaterThan(count);
      return messages;
    });
    return codeFrom(mail.at(-1)?.text ?? '');
  };
  const mailsTo = (to: string) => outbox().filter((message) => message.to === to).length;

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
    const code = await nextCode('pmo@demo.local', 0);
    expect(outbox().some((message) => message.to === 'ghost@demo.local')).toBe(false);
    expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);

    const session = await signedInClient(testApp.app, 'pmo@demo.local');
    const wrong = await anonymous.request({
      method: 'POST',
      url: '/api/password-reset/confirm',
      payload: { email: 'pmo@demo.local', code: 'AAAA-BBBB-CCCC', newPassword: 'Reset-pass-77' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({
      code: 'invalid_code',
      message: 'The confirmation code is wrong. Check it and try again.',
    });
    // Typed in lower case, with spaces instead of dashes: the same code.
    const ok = await anonymous.request({
      method: 'POST',
      url: '/api/password-reset/confirm',
      payload: { email: 'pmo@demo.local', code: code.toLowerCase().replaceAll('-', ' '), newPassword: 'Reset-pass-77' },
    });
    expect(ok.statusCode).toBe(200);
    const reused = await anonymous.request({
      method: 'POST',
      url: '/api/password-reset/confirm',
      payload: { email: 'pmo@demo.local', code, newPassword: 'Reset-pass-78' },
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.code).toBe('code_expired');
    expect((await session.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    expect((await new TestClient(testApp.app).signIn('pmo@demo.local', 'Reset-pass-77')).statusCode).toBe(200);
  });

  it('checks at most the limit of 30 wrong passwords sent at once', async () => {
    const client = new TestClient(testApp.app);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) =>
        client.request({
          method: 'POST',
          url: '/api/session',
          payload: { email: 't3@demo.local', password: `guess-${attempt}` },
          remoteAddress: '203.0.113.30',
        }),
      ),
    );
    const wrong = answers.filter((answer) => answer.json().error?.code === 'sign_in_failed');
    const locked = answers.filter((answer) => answer.json().error?.code === 'sign_in_locked');
    // The limit is 4 here: attempts 1 to 3 are told "wrong", the 4th is checked and locks, the rest never are.
    expect(wrong.length).toBeLessThanOrEqual(4);
    expect(wrong.length + locked.length).toBe(30);
    const { rows } = await testApp.database.sql.executeSql(
      "select count(*)::int as n from security_events where email = 't3@demo.local' and type = 'sign_in_failed'",
    );
    expect(rows).toEqual([{ n: 4 }]);
    // Even the right password waits for the lock to end.
    expect((await client.signIn('t3@demo.local')).statusCode).toBe(429);
  });

  it('checks at most 5 of 30 wrong codes sent at once, then refuses even the right code', async () => {
    const client = new TestClient(testApp.app);
    const before = mailsTo('proserv@demo.local');
    await client.request({
      method: 'POST',
      url: '/api/password-reset',
      payload: { email: 'proserv@demo.local' },
      remoteAddress: '203.0.113.31',
    });
    const code = await nextCode('proserv@demo.local', before);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) =>
        client.request({
          method: 'POST',
          url: '/api/password-reset/confirm',
          payload: {
            email: 'proserv@demo.local',
            code: `ZZZZ-ZZZZ-${String(attempt).padStart(4, '0')}`,
            newPassword: 'Guessed-pass-1',
          },
          remoteAddress: '203.0.113.31',
        }),
      ),
    );
    const codes = answers.map((answer) => answer.json().error?.code);
    expect(codes.filter((value) => value === 'invalid_code').length).toBeLessThanOrEqual(5);
    expect(codes.filter((value) => value === 'invalid_code' || value === 'code_locked')).toHaveLength(30);
    const { rows } = await testApp.database.sql.executeSql(
      "select count(*)::int as n from security_events where email = 'proserv@demo.local' and type in ('password_reset_failed', 'password_reset_locked')",
    );
    expect(rows).toEqual([{ n: 5 }]);
    const right = await client.request({
      method: 'POST',
      url: '/api/password-reset/confirm',
      payload: { email: 'proserv@demo.local', code, newPassword: 'Guessed-pass-1' },
      remoteAddress: '203.0.113.31',
    });
    expect(right.statusCode).toBe(429);
    expect(right.json().error.message).toBe(
      'This confirmation code is locked after 5 failed attempts. Ask for a new code.',
    );
  });

  it('limits code requests per account and per address', async () => {
    const client = new TestClient(testApp.app);
    const ask = (email: string, remoteAddress: string) =>
      client.request({ method: 'POST', url: '/api/password-reset', payload: { email }, remoteAddress });
    const statuses = async (asks: Promise<{ statusCode: number }>[]) =>
      (await Promise.all(asks)).map((answer) => answer.statusCode).sort();
    const perAccount = await statuses(
      Array.from({ length: 6 }, (_, index) => ask('support@demo.local', `198.51.100.${index}`)),
    );
    expect(perAccount).toEqual([202, 202, 202, 202, 202, 429]);
    const perAddress = await statuses(
      Array.from({ length: 21 }, (_, index) => ask(`nobody${index}@demo.local`, '198.51.100.99')),
    );
    expect(perAddress).toEqual([...Array.from({ length: 20 }, () => 202), 429]);
  });

  it('answers a code request for a known and an unknown account in the same time', async () => {
    const client = new TestClient(testApp.app);
    const timed = async (email: string, remoteAddress: string) => {
      const started = performance.now();
      const answer = await client.request({
        method: 'POST',
        url: '/api/password-reset',
        payload: { email },
        remoteAddress,
      });
      expect(answer.statusCode).toBe(202);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 5; round++) {
      known.push(await timed('user@demo.local', `192.0.2.${round}`));
      unknown.push(await timed(`ghost${round}@demo.local`, `192.0.2.${round + 10}`));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[2] ?? 0;
    expect(Math.min(...known, ...unknown)).toBeGreaterThanOrEqual(RESET_ANSWER_FLOOR_MS - 5);
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(50);
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

  it('counts wrong current passwords in a password change like failed sign-ins, then locks', async () => {
    const client = await signedInClient(testApp.app, 'tam@demo.local');
    const change = (oldPassword: string) =>
      client.request({
        method: 'PUT',
        url: '/api/account/password',
        payload: { oldPassword, newPassword: 'Changed-pass-9' },
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) statuses.push((await change(`wrong-${attempt}`)).statusCode);
    expect(statuses).toEqual([400, 400, 400, 429]);
    // Locked: even the right password is not checked, here or at sign-in.
    const locked = await change('demo-password');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.message).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
    expect((await new TestClient(testApp.app).signIn('tam@demo.local')).statusCode).toBe(429);
    const { rows } = await testApp.database.sql.executeSql(
      "select type from security_events where email = 'tam@demo.local'",
    );
    expect((rows as { type: string }[]).filter((row) => row.type === 'password_change_failed')).toHaveLength(4);
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

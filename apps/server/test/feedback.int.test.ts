import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp, type TestClient } from './build-test-app.js';

describe('feedback to the team', () => {
  let testApp: TestApp;
  let proserv: TestClient;
  const outbox = () => testApp.sandbox?.mail.messages ?? [];
  const send = (payload: Record<string, unknown>) => proserv.request({ method: 'POST', url: '/api/feedback', payload });

  beforeAll(async () => {
    // The original reports service moved to a prefix of the operator's choosing (COMPAT_REPORTS_PREFIX).
    testApp = await createTestApp('pglite', { COMPAT_REPORTS_PREFIX: '/reports-service/' });
    proserv = await signedInClient(testApp.app, 'proserv@demo.local');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('mails the support address what the user wrote and where, and audits that it was sent', async () => {
    const response = await send({
      text: 'The restore plan reads well.',
      page: '/home/tools/backup-restore',
      rating: 4,
    });
    expect([response.statusCode, response.json()]).toEqual([
      200,
      { message: 'Thank you: your feedback was sent to the team.' },
    ]);
    const mail = outbox().at(-1);
    expect(mail).toMatchObject({
      to: 'ce-toolkit-support@example.com',
      subject: 'CE Toolkit feedback from proserv@demo.local',
    });
    expect(mail?.text).toContain('(ProServ)');
    expect(mail?.text).toContain('Page: /home/tools/backup-restore');
    expect(mail?.text).toContain('Rating: 4 of 5');
    expect(mail?.text).toContain('The restore plan reads well.');
    const admin = await signedInClient(testApp.app, 'superuser@demo.local');
    const [entry] = (await admin.request({ method: 'GET', url: '/api/audit-log' })).json().entries;
    expect(entry).toMatchObject({ actorEmail: 'proserv@demo.local', action: 'feedback.sent' });
    expect(JSON.stringify(entry)).not.toContain('reads well');
  });

  it("takes the original service's Feedback/ call under the configured prefix only", async () => {
    const moved = await proserv.request({
      method: 'POST',
      url: '/reports-service/Feedback/',
      payload: { comments: 'Posted by the old feedback form.', cec: 'proserv@demo.local' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(outbox().at(-1)?.text).toContain('Posted by the old feedback form.');
    const old = await proserv.request({ method: 'POST', url: '/compat/reports/Feedback/', payload: { comments: 'x' } });
    expect(old.statusCode).toBe(404);
  });

  it('refuses empty and overlong feedback, and more than ten an hour, in words', async () => {
    const sentBefore = outbox().length;
    expect((await send({ text: '   ' })).json().error.message).toBe('Write your feedback first.');
    expect((await send({ text: 'x'.repeat(5001) })).json().error.message).toBe('Feedback is at most 5000 characters.');
    expect(outbox().length).toBe(sentBefore);
    // Two were sent by the tests before: eight more reach the team, the eleventh waits for the hour.
    for (let index = 0; index < 8; index += 1) expect((await send({ text: `Note ${index}` })).statusCode).toBe(200);
    const refused = await send({ text: 'One too many' });
    expect([refused.statusCode, refused.json().error.message]).toEqual([
      429,
      'You have sent a lot of feedback this hour: please try again later.',
    ]);
    expect(outbox().length).toBe(sentBefore + 8);
    const anonymous = await testApp.app.inject({ method: 'POST', url: '/api/feedback', payload: { text: 'hi' } });
    expect(anonymous.statusCode).toBe(401);
  });
});

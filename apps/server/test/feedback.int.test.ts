import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp, type TestClient } from './build-test-app.js';

describe('feedback to the team', () => {
  let testApp: TestApp;
  let proserv: TestClient;
  const outbox = () => testApp.sandbox?.mail.messages ?? [];
  const send = (payload: Record<string, unknown>) => proserv.request({ method: 'POST', url: '/api/feedback', payload });

  beforeAll(async () => {
    testApp = await createTestApp('pglite');
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

  it('refuses empty and overlong feedback, and more than ten an hour, in words', async () => {
    const sentBefore = outbox().length;
    expect((await send({ text: '   ' })).json().error.message).toBe('Write your feedback first.');
    expect((await send({ text: 'x'.repeat(5001) })).json().error.message).toBe('Feedback is at most 5000 characters.');
    expect(outbox().length).toBe(sentBefore);
    // One was sent by the test before: nine more reach the team, the eleventh waits for the hour.
    for (let index = 0; index < 9; index += 1) expect((await send({ text: `Note ${index}` })).statusCode).toBe(200);
    const refused = await send({ text: 'One too many' });
    expect([refused.statusCode, refused.json().error.message]).toEqual([
      429,
      'You have sent a lot of feedback this hour: please try again later.',
    ]);
    expect(outbox().length).toBe(sentBefore + 9);
    const anonymous = await testApp.app.inject({ method: 'POST', url: '/api/feedback', payload: { text: 'hi' } });
    expect(anonymous.statusCode).toBe(401);
  });
});

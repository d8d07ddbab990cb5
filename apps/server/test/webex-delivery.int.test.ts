import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectFetch } from '../src/adapters/inject-fetch.js';
import { WebexClient } from '../src/adapters/webex-client.js';
import { WebexDeliveries } from '../src/adapters/webex-delivery.js';
import { createTestApp, DATABASES, type TestApp } from './build-test-app.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(DATABASES)('Webex messages of a job, each posted once (%s)', (kind) => {
  let testApp: TestApp;
  let webex: WebexClient;
  let deliveries: WebexDeliveries;
  const to = 'tam@demo.local';
  const posted = (markdown: string) =>
    testApp.sandbox?.webex.messages.filter((message) => message.toPersonEmail === to && message.markdown === markdown)
      .length;

  beforeAll(async () => {
    testApp = await createTestApp(kind, { WORKERS_ENABLED: 'false' });
    const sandbox = testApp.sandbox;
    if (!sandbox) throw new Error('the sandbox is mounted in tests');
    const origin = 'http://sandbox.webex';
    webex = new WebexClient({
      baseUrl: `${origin}/sandbox/webex`,
      botToken: sandbox.webexBotToken,
      fetch: injectFetch(testApp.app, origin),
    });
    deliveries = new WebexDeliveries(testApp.database.db, webex);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('sends a key once, however often the job asks', async () => {
    expect(await deliveries.sendOnce('report:once:0', to, '**Report** ready')).toBe('sent');
    expect(await deliveries.sendOnce('report:once:0', to, '**Report** ready')).toBe('already sent');
    expect(posted('**Report** ready')).toBe(1);
  });

  it('sends nothing for a worker that lost its job: the check before sending refuses, the key stays for the holder', async () => {
    const markdown = '**Paused** past its lease';
    const lost = new Error('The lease on job r1 was lost to another worker');
    await expect(
      deliveries.sendOnce('report:paused:0', to, markdown, undefined, () => Promise.reject(lost)),
    ).rejects.toBe(lost);
    expect(posted(markdown)).toBe(0);
    // The worker holding the job now delivers it, once.
    expect(await deliveries.sendOnce('report:paused:0', to, markdown, undefined, () => Promise.resolve())).toBe('sent');
    expect(posted(markdown)).toBe(1);
  });

  it('after a crash between sending and recording it, finds the message in Webex instead of posting it again', async () => {
    const markdown = '**Crashed** after sending';
    // The worker recorded the message, sent it, and died before confirming it.
    await testApp.database.sql.executeSql(
      `insert into webex_deliveries (key, to_email, markdown_sha256, status)
       values ('report:crashed:0', $1, $2, 'sending')`,
      [to, sha256(markdown)],
    );
    await webex.send(to, markdown);
    expect(await deliveries.sendOnce('report:crashed:0', to, markdown)).toBe('already sent');
    expect(posted(markdown)).toBe(1);
    const [row] = (
      await testApp.database.sql.executeSql(
        "select status, message_id from webex_deliveries where key = 'report:crashed:0'",
      )
    ).rows as { status: string; message_id: string | null }[];
    expect(row?.status).toBe('sent');
    expect(row?.message_id).toBe(
      testApp.sandbox?.webex.messages.findLast((message) => message.markdown === markdown)?.id,
    );
  });

  it('after a crash before sending it, sends it (once)', async () => {
    const markdown = '**Crashed** before sending';
    await testApp.database.sql.executeSql(
      `insert into webex_deliveries (key, to_email, markdown_sha256, status)
       values ('report:unsent:0', $1, $2, 'sending')`,
      [to, sha256(markdown)],
    );
    expect(await deliveries.sendOnce('report:unsent:0', to, markdown)).toBe('sent');
    expect(await deliveries.sendOnce('report:unsent:0', to, markdown)).toBe('already sent');
    expect(posted(markdown)).toBe(1);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { injectFetch } from '../src/adapters/inject-fetch.js';
import { WebexClient } from '../src/adapters/webex-client.js';
import { WebexDeliveries } from '../src/adapters/webex-delivery.js';
import { createTestApp, DATABASES, type TestApp } from './build-test-app.js';

/**
 * A sender whose message is on its way when its process stops (SIGSTOP past its job's lease): its check before
 * sending passed, the request has not reached Webex (or Webex's answer has not reached it). Another worker takes the
 * job and its message over meanwhile; then the stopped one runs again.
 */
describe.each(DATABASES)('a Webex message whose sender stopped with it on the way (%s)', (kind) => {
  let testApp: TestApp;
  let origin: string;
  const to = 'tam@paused-delivery.test';
  // A message with a file is a multipart form: its line breaks arrive as CRLF.
  const posted = (markdown: string) =>
    testApp.sandbox?.webex.messages.filter(
      (message) => message.toPersonEmail === to && message.markdown?.replaceAll('\r\n', '\n') === markdown,
    ) ?? [];
  const recorded = async (key: string) =>
    (
      (await testApp.database.sql.executeSql('select status, message_id from webex_deliveries where key = $1', [key]))
        .rows as { status: string; message_id: string | null }[]
    )[0];

  /**
   * A worker's deliveries whose first message post stops where `where` says until `resume` is called: `before` it
   * reaches Webex, or `after` Webex made the message (its answer held back), or `lost` (it never reaches Webex: its
   * time ran out while it was stopped).
   */
  function stoppedWorker(where: 'before' | 'after' | 'lost') {
    const inner = injectFetch(testApp.app, 'http://sandbox.webex');
    let resume!: () => void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    let reached = false;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const posting = init?.method === 'POST' && String(input).endsWith('/v1/messages') && !reached;
      if (!posting) return inner(input, init);
      reached = true;
      if (where !== 'after') await resumed;
      if (where === 'lost') throw new TypeError('fetch failed');
      const answer = await inner(input, init);
      if (where === 'after') await resumed;
      return answer;
    };
    const webex = new WebexClient({ baseUrl: `${origin}/sandbox/webex`, botToken: botToken(), fetch });
    return { deliveries: new WebexDeliveries(testApp.database.db, webex), resume, reached: () => reached };
  }
  const botToken = () => testApp.sandbox?.webexBotToken ?? '';
  const worker = () =>
    new WebexDeliveries(
      testApp.database.db,
      new WebexClient({
        baseUrl: `${origin}/sandbox/webex`,
        botToken: botToken(),
        fetch: injectFetch(testApp.app, 'http://sandbox.webex'),
      }),
    );
  const file = (name: string) => ({ filename: name, contentType: 'text/csv', content: Buffer.from('a,b\n1,2\n') });
  const stillHeld = () => Promise.resolve();

  beforeAll(async () => {
    testApp = await createTestApp(kind, { WORKERS_ENABLED: 'false' });
    if (!testApp.sandbox) throw new Error('the sandbox is mounted in tests');
    origin = 'http://sandbox.webex';
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('stopped before its message reached Webex, the takeover sent it: once resumed, one message stays, the one recorded', async () => {
    const key = `report:${kind}-late:0`;
    const markdown = `**Report** ready\n2 account group(s), 5 finding(s). (${kind}, sent late)`;
    const paused = stoppedWorker('before');
    const late = paused.deliveries.deliver(key, to, markdown, file('late.csv'), { subject: key }, stillHeld);
    await vi.waitFor(() => expect(paused.reached()).toBe(true));

    // The job's new worker takes the message over: not in Webex, so it sends it.
    expect(await worker().deliver(key, to, markdown, file('late.csv'), { subject: key }, stillHeld)).toEqual({
      outcome: 'sent',
      error: null,
    });
    expect(posted(markdown)).toHaveLength(1);

    // The stopped worker runs again: its message goes out late, and is taken back.
    paused.resume();
    expect((await late).outcome).toBe('already sent');
    const left = posted(markdown);
    expect(left).toHaveLength(1);
    expect(await recorded(key)).toEqual({ status: 'sent', message_id: left[0]?.id });
  });

  it('stopped until its send timed out, the takeover sent it: once resumed, the message stays sent', async () => {
    const key = `report:${kind}-timed-out:0`;
    const markdown = `**Report** ready\n3 account group(s). (${kind}, timed out)`;
    const paused = stoppedWorker('lost');
    const late = paused.deliveries.deliver(key, to, markdown, file('lost.csv'), { subject: key }, stillHeld);
    await vi.waitFor(() => expect(paused.reached()).toBe(true));
    expect((await worker().deliver(key, to, markdown, file('lost.csv'), { subject: key }, stillHeld)).outcome).toBe(
      'sent',
    );
    paused.resume();
    expect(await late).toEqual({ outcome: 'already sent', error: null });
    const left = posted(markdown);
    expect(left).toHaveLength(1);
    expect(await recorded(key)).toEqual({ status: 'sent', message_id: left[0]?.id });
  });

  it("stopped once Webex made its message, the takeover finds it there: once resumed, the stopped worker's answer keeps it", async () => {
    const key = `report:${kind}-answered:0`;
    const markdown = `**Report** ready\n1 account group(s). (${kind}, answer held back)`;
    const paused = stoppedWorker('after');
    const late = paused.deliveries.deliver(key, to, markdown, file('held.csv'), { subject: key }, stillHeld);
    await vi.waitFor(() => expect(posted(markdown)).toHaveLength(1));

    expect(await worker().deliver(key, to, markdown, file('held.csv'), { subject: key }, stillHeld)).toEqual({
      outcome: 'already sent',
      error: null,
    });
    paused.resume();
    expect((await late).outcome).toBe('sent');
    const left = posted(markdown);
    expect(left).toHaveLength(1);
    expect(await recorded(key)).toEqual({ status: 'sent', message_id: left[0]?.id });
  });
});

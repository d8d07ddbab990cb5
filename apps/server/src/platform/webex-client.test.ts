import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Sandbox, sandboxPlugin } from '@ce/sandbox';
import { injectFetch } from './inject-fetch.js';
import { fitMarkdown, WEBEX_TEXT_LIMIT, WebexClient, WebexError } from './webex-client.js';

// The client against the Webex stand-in, reached in-process (no port) and with a clock the test controls.
describe('the Webex client', () => {
  const sandbox = new Sandbox({ webexBotToken: 'bot-token-for-tests' });
  const app = Fastify({ logger: false });
  const baseUrl = 'http://webex.test/sandbox/webex';
  const client = (options: { botToken?: string; sleep?: (ms: number) => Promise<void> } = {}) =>
    new WebexClient({
      baseUrl,
      botToken: options.botToken ?? 'bot-token-for-tests',
      fetch: injectFetch(app, 'http://webex.test'),
      sleep: options.sleep,
    });

  beforeAll(async () => {
    await app.register(sandboxPlugin, { prefix: '/sandbox', sandbox, demoMode: true });
    await app.ready();
  });
  afterAll(() => app.close());
  beforeEach(() => sandbox.reset());

  it('sends markdown with one file', async () => {
    await client().send('tam@demo.local', '**Ready**', {
      filename: 'report.xlsx',
      contentType: 'application/octet-stream',
      content: Buffer.from('bytes'),
    });
    expect(sandbox.webex.messages).toMatchObject([
      { toPersonEmail: 'tam@demo.local', markdown: '**Ready**', file: { name: 'report.xlsx' } },
    ]);
    expect(sandbox.webex.messages[0]?.file?.content.toString()).toBe('bytes');
  });

  it('waits out a 429 for as long as Retry-After says, then delivers', async () => {
    sandbox.webex.throttledUntil = Number.MAX_SAFE_INTEGER;
    sandbox.webex.retryAfterSeconds = 7;
    const waits: number[] = [];
    const throttled = client({
      // Waiting ends the storm: the next attempt goes through.
      sleep: async (ms) => {
        waits.push(ms);
        sandbox.webex.throttledUntil = 0;
      },
    });
    await throttled.send('tam@demo.local', 'after the storm');
    expect(waits).toEqual([7000]);
    expect(sandbox.webex.messages.map((message) => message.text ?? message.markdown)).toEqual(['after the storm']);
  });

  it('says why Webex refused a message', async () => {
    const refused = client({ botToken: 'wrong-token-value' });
    await expect(refused.send('tam@demo.local', 'hi')).rejects.toBeInstanceOf(WebexError);
    await expect(refused.send('tam@demo.local', 'hi')).rejects.toThrow(/Webex refused the message \(401\)/);
    expect(sandbox.webex.messages).toEqual([]);
  });

  it('keeps markdown within the byte limit', async () => {
    const long = 'é'.repeat(WEBEX_TEXT_LIMIT);
    const fitted = fitMarkdown(long);
    expect(Buffer.byteLength(fitted)).toBeLessThanOrEqual(WEBEX_TEXT_LIMIT);
    expect(fitted.endsWith('(truncated)')).toBe(true);
    await client().send('tam@demo.local', long);
    // What Webex received: within its limit, and saying it was cut (form data sends line breaks as CRLF).
    const received = sandbox.webex.messages[0]?.markdown ?? '';
    expect(Buffer.byteLength(received)).toBeLessThanOrEqual(WEBEX_TEXT_LIMIT);
    expect(received.replaceAll('\r\n', '\n')).toBe(fitted);
  });
});

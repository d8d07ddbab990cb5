import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Sandbox, sandboxPlugin } from '@ce/sandbox';
import { fitMarkdown, WEBEX_TEXT_LIMIT, WebexClient, WebexError } from './webex-client.js';

describe('the Webex client against the sandbox', () => {
  const sandbox = new Sandbox({ webexBotToken: 'bot-token-for-tests' });
  const app = Fastify({ logger: false });
  let baseUrl = '';

  beforeAll(async () => {
    await app.register(sandboxPlugin, { prefix: '/sandbox', sandbox, demoMode: true });
    baseUrl = `${await app.listen({ host: '127.0.0.1', port: 0 })}/sandbox/webex`;
  });
  afterAll(() => app.close());
  beforeEach(() => sandbox.reset());

  it('sends markdown with one file', async () => {
    await new WebexClient({ baseUrl, botToken: 'bot-token-for-tests' }).send('tam@demo.local', '**Ready**', {
      filename: 'report.xlsx',
      contentType: 'application/octet-stream',
      content: Buffer.from('bytes'),
    });
    expect(sandbox.webex.messages).toMatchObject([
      { toPersonEmail: 'tam@demo.local', markdown: '**Ready**', file: { name: 'report.xlsx' } },
    ]);
  });

  it('waits out a 429 for as long as Retry-After says, then delivers', async () => {
    sandbox.webex.throttledUntil = Date.now() + 300;
    sandbox.webex.retryAfterSeconds = 1;
    const waits: number[] = [];
    const client = new WebexClient({
      baseUrl,
      botToken: 'bot-token-for-tests',
      sleep: async (ms) => {
        waits.push(ms);
        await new Promise((resolve) => setTimeout(resolve, 350));
      },
    });
    await client.send('tam@demo.local', 'after the storm');
    expect(waits).toEqual([1000]);
    expect(sandbox.webex.messages).toHaveLength(1);
  });

  it('says why Webex refused a message', async () => {
    const client = new WebexClient({ baseUrl, botToken: 'wrong-token-value' });
    await expect(client.send('tam@demo.local', 'hi')).rejects.toBeInstanceOf(WebexError);
    await expect(client.send('tam@demo.local', 'hi')).rejects.toThrow(/Webex refused the message \(401\)/);
  });

  it('keeps markdown within the byte limit', async () => {
    const long = 'é'.repeat(WEBEX_TEXT_LIMIT);
    const fitted = fitMarkdown(long);
    expect(Buffer.byteLength(fitted)).toBeLessThanOrEqual(WEBEX_TEXT_LIMIT);
    expect(fitted.endsWith('(truncated)')).toBe(true);
    await new WebexClient({ baseUrl, botToken: 'bot-token-for-tests' }).send('tam@demo.local', long);
    expect(sandbox.webex.messages).toHaveLength(1);
  });
});

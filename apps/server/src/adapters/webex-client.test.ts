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

  it('streams a large file: the body is sent as its chunks are read, never gathered first', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let read = 0;
    let sentWhenLastRead = -1;
    let sent = 0;
    async function* chunks() {
      for (let index = 0; index < 8; index++) {
        read += 1;
        // A chunk is asked for only once the ones before it have gone out (plus what the stream buffers).
        expect(read - sent).toBeLessThanOrEqual(3);
        yield chunk;
      }
      sentWhenLastRead = sent;
    }
    const counting: typeof fetch = async (_url, init) => {
      expect(init?.body).toBeInstanceOf(ReadableStream);
      const reader = (init?.body as ReadableStream<Uint8Array>).getReader();
      const parts: Buffer[] = [];
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        parts.push(Buffer.from(next.value));
        if (next.value.length === chunk.length) sent += 1;
      }
      const body = Buffer.concat(parts);
      expect(body.includes(Buffer.from('filename="capture.pcap"'))).toBe(true);
      expect(body.length).toBeGreaterThan(8 * chunk.length);
      return new Response('{}', { status: 200 });
    };
    await new WebexClient({ baseUrl, botToken: 'bot', fetch: counting }).send('tam@demo.local', 'capture', {
      filename: 'capture.pcap',
      contentType: 'application/vnd.tcpdump.pcap',
      content: chunks,
    });
    expect(read).toBe(8);
    expect(sentWhenLastRead).toBeGreaterThanOrEqual(5);
  });

  it('delivers a streamed file to the Webex stand-in as the same bytes', async () => {
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, index) => index % 251));
    await client().send('tam@demo.local', 'streamed', {
      filename: 'x.pcap',
      contentType: 'application/octet-stream',
      content: async function* () {
        yield bytes.subarray(0, 1000);
        yield bytes.subarray(1000);
      },
    });
    expect(Buffer.compare(sandbox.webex.messages[0]?.file?.content ?? Buffer.alloc(0), bytes)).toBe(0);
  });

  it('stops a streamed upload short of its end when the sender may no longer send: no message, its reason thrown', async () => {
    const lost = new Error('lease lost to another worker');
    let checked = 0;
    const file = {
      filename: 'x.xlsx',
      contentType: 'application/octet-stream',
      content: async function* () {
        yield Buffer.from('all of the file');
      },
    };
    await expect(
      client().send('tam@demo.local', 'paused mid-upload', file, async () => {
        checked += 1;
        throw lost;
      }),
    ).rejects.toBe(lost);
    expect(checked).toBe(1);
    expect(sandbox.webex.messages).toEqual([]);
    // Still allowed, the same upload goes through.
    await client().send('tam@demo.local', 'resumed in time', file, async () => undefined);
    expect(sandbox.webex.messages.map((message) => message.markdown)).toEqual(['resumed in time']);
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

  it("deletes one of the bot's messages: gone from its lists; one gone already is no error", async () => {
    const kept = await client().send('tam@demo.local', 'kept');
    const second = await client().send('tam@demo.local', 'sent twice');
    await client().deleteMessage(second.id ?? '');
    expect((await client().directMessages('tam@demo.local')).map((message) => message.id)).toEqual([kept.id]);
    await expect(client().deleteMessage(second.id ?? '')).resolves.toBeUndefined();
    await expect(client({ botToken: 'wrong-token-value' }).deleteMessage(kept.id ?? '')).rejects.toThrow(
      /Webex refused to delete the message \(401\)/,
    );
    expect(sandbox.webex.messages.map((message) => message.markdown)).toEqual(['kept']);
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

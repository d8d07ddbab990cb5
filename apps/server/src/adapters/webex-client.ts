/** Webex's limit on a message's markdown, in bytes. */
export const WEBEX_TEXT_LIMIT = 7439;

import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

export interface WebexFile {
  filename: string;
  contentType: string;
  /** The bytes, or (for large files) where to read them, chunk by chunk, each time the message is sent. */
  content: Buffer | (() => AsyncIterable<Buffer>);
}

const quoted = (value: string) => value.replace(/["\r\n\\]/g, (character) => encodeURIComponent(character));

/**
 * A multipart body that reads the file as it is sent: memory stays at one chunk whatever the file's size.
 * Fields first, then the file, as the Messages API takes them.
 */
function streamedForm(
  fields: Record<string, string>,
  file: WebexFile & { content: () => AsyncIterable<Buffer> },
  beforeLastBytes?: () => Promise<void>,
): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = `----ce-toolkit-${randomBytes(12).toString('hex')}`;
  async function* parts(): AsyncGenerator<Buffer> {
    for (const [name, value] of Object.entries(fields))
      yield Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    yield Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="${quoted(file.filename)}"\r\n` +
        `content-type: ${file.contentType}\r\n\r\n`,
    );
    for await (const chunk of file.content()) yield chunk;
    // Webex makes the message only once the form ends: a sender that may no longer send stops short of it.
    await beforeLastBytes?.();
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return {
    body: Readable.toWeb(Readable.from(parts(), { objectMode: false })) as ReadableStream<Uint8Array>,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export class WebexError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'WebexError';
  }
}

export interface WebexClientOptions {
  baseUrl: string;
  botToken: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** How many 429 answers to wait out before giving up. */
  maxThrottleRetries?: number;
}

/** Cuts markdown to Webex's byte limit without splitting a character. */
export function fitMarkdown(markdown: string, limit = WEBEX_TEXT_LIMIT): string {
  if (Buffer.byteLength(markdown, 'utf8') <= limit) return markdown;
  const suffix = '\n\n…(truncated)';
  let cut = markdown;
  while (Buffer.byteLength(cut + suffix, 'utf8') > limit) cut = cut.slice(0, Math.floor(cut.length * 0.9));
  return cut + suffix;
}

/** Where a message goes: a person, by email, or a room the bot is in. */
export type WebexRecipient = string | { roomId: string };

/**
 * Sends direct messages through the Webex Messages API: markdown, and at most one file per message
 * (a multipart upload), waiting out 429s for as long as Retry-After says.
 */
export class WebexClient {
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: WebexClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * Sends one message to a person (by email) or a room; answers the id Webex gave it. A file read as it is sent
   * may take a while to upload: `beforeLastBytes` runs before the form's last bytes go, and what it throws ends the
   * upload unfinished (Webex then makes no message) and is what `send` throws.
   */
  async send(
    to: WebexRecipient,
    markdown: string,
    file?: WebexFile,
    beforeLastBytes?: () => Promise<void>,
  ): Promise<{ id: string | null }> {
    let stopped: { error: unknown } | undefined;
    const guard =
      beforeLastBytes &&
      (async () => {
        try {
          await beforeLastBytes();
        } catch (error) {
          stopped = { error };
          throw error;
        }
      });
    for (let attempt = 0; ; attempt++) {
      const fields = {
        ...(typeof to === 'string' ? { toPersonEmail: to } : { roomId: to.roomId }),
        markdown: fitMarkdown(markdown),
      };
      const headers: Record<string, string> = { authorization: `Bearer ${this.options.botToken}` };
      let body: FormData | ReadableStream<Uint8Array>;
      if (file && typeof file.content === 'function') {
        const streamed = streamedForm(fields, { ...file, content: file.content }, guard);
        body = streamed.body;
        headers['content-type'] = streamed.contentType;
      } else {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) form.set(name, value);
        if (file && Buffer.isBuffer(file.content))
          form.set('files', new Blob([new Uint8Array(file.content)], { type: file.contentType }), file.filename);
        body = form;
      }
      let response: Response;
      try {
        response = await this.fetchImpl(`${this.options.baseUrl.replace(/\/$/, '')}/v1/messages`, {
          method: 'POST',
          headers,
          body,
          // A streamed body is sent as it is read (fetch asks to be told).
          ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
          signal: AbortSignal.timeout(body instanceof ReadableStream ? 10 * 60_000 : 60_000),
        } as RequestInit);
      } catch {
        if (stopped) throw stopped.error;
        throw new WebexError(0, 'Webex could not be reached');
      }
      if (response.status === 429 && attempt < (this.options.maxThrottleRetries ?? 5)) {
        const retryAfter = Number(response.headers.get('retry-after'));
        await this.sleep((Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 5) * 1000);
        continue;
      }
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        throw new WebexError(
          response.status,
          `Webex refused the message (${response.status}): ${body.message ?? response.statusText}`,
        );
      }
      const sent = (await response.json().catch(() => ({}))) as { id?: unknown };
      return { id: typeof sent.id === 'string' ? sent.id : null };
    }
  }

  /**
   * Deletes one of the bot's messages (DELETE /v1/messages/{id}): a message found gone already (404) is gone too.
   */
  async deleteMessage(messageId: string): Promise<void> {
    const url = `${this.options.baseUrl.replace(/\/$/, '')}/v1/messages/${encodeURIComponent(messageId)}`;
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${this.options.botToken}` },
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      throw new WebexError(0, 'Webex could not be reached');
    }
    if (!response.ok && response.status !== 404)
      throw new WebexError(response.status, `Webex refused to delete the message (${response.status})`);
  }

  /**
   * The latest messages of the bot's direct space with a person (GET /v1/messages/direct), newest first:
   * how a delivery cut short by a crash finds out whether its message went out.
   */
  async directMessages(personEmail: string, max = 50): Promise<WebexSentMessage[]> {
    const url = new URL(`${this.options.baseUrl.replace(/\/$/, '')}/v1/messages/direct`);
    url.searchParams.set('personEmail', personEmail);
    return this.listed(url, max);
  }

  /**
   * The latest messages of a room the bot is in (GET /v1/messages?roomId=), newest first. Webex shows a bot only
   * some of a group room's messages: a message not found here may still have been sent.
   */
  async roomMessages(roomId: string, max = 50): Promise<WebexSentMessage[]> {
    const url = new URL(`${this.options.baseUrl.replace(/\/$/, '')}/v1/messages`);
    url.searchParams.set('roomId', roomId);
    return this.listed(url, max);
  }

  /**
   * Whether a person is a member of a room (GET /v1/memberships?roomId=&personEmail=): `member`, `not-member` (the
   * room lists no membership of theirs), or `no-room` (Webex finds no such room for the bot: the bot is not in it,
   * or the id is wrong). A watch's messages go to a room only while its owner is a member (issue 55).
   */
  async membership(roomId: string, personEmail: string): Promise<'member' | 'not-member' | 'no-room'> {
    const url = new URL(`${this.options.baseUrl.replace(/\/$/, '')}/v1/memberships`);
    url.searchParams.set('roomId', roomId);
    url.searchParams.set('personEmail', personEmail);
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        headers: { authorization: `Bearer ${this.options.botToken}` },
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      throw new WebexError(0, 'Webex could not be reached');
    }
    // Webex answers 404 for a room the caller is not in (one must be a member to list its memberships), and 400
    // for an id that is not one.
    if (response.status === 404 || response.status === 400) return 'no-room';
    if (!response.ok)
      throw new WebexError(response.status, `Webex refused to list the room's members (${response.status})`);
    const body = (await response.json().catch(() => ({}))) as { items?: unknown };
    const items = Array.isArray(body.items) ? (body.items as Record<string, unknown>[]) : [];
    const wanted = personEmail.toLowerCase();
    return items.some(
      (item) =>
        item.roomId === roomId && typeof item.personEmail === 'string' && item.personEmail.toLowerCase() === wanted,
    )
      ? 'member'
      : 'not-member';
  }

  private async listed(url: URL, max: number): Promise<WebexSentMessage[]> {
    url.searchParams.set('max', String(max));
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        headers: { authorization: `Bearer ${this.options.botToken}` },
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      throw new WebexError(0, 'Webex could not be reached');
    }
    if (!response.ok) throw new WebexError(response.status, `Webex refused to list messages (${response.status})`);
    const body = (await response.json().catch(() => ({}))) as { items?: unknown };
    return (Array.isArray(body.items) ? body.items : []).flatMap((item: Record<string, unknown>) =>
      typeof item.id === 'string'
        ? [
            {
              id: item.id,
              markdown: typeof item.markdown === 'string' ? item.markdown : undefined,
              text: typeof item.text === 'string' ? item.text : undefined,
              created: typeof item.created === 'string' ? item.created : '',
            },
          ]
        : [],
    );
  }
}

export interface WebexSentMessage {
  id: string;
  markdown?: string;
  text?: string;
  created: string;
}

/** Webex's limit on a message's markdown, in bytes. */
export const WEBEX_TEXT_LIMIT = 7439;

export interface WebexFile {
  filename: string;
  contentType: string;
  content: Buffer;
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

  async send(toPersonEmail: string, markdown: string, file?: WebexFile): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const form = new FormData();
      form.set('toPersonEmail', toPersonEmail);
      form.set('markdown', fitMarkdown(markdown));
      if (file) form.set('files', new Blob([new Uint8Array(file.content)], { type: file.contentType }), file.filename);
      let response: Response;
      try {
        response = await this.fetchImpl(`${this.options.baseUrl.replace(/\/$/, '')}/v1/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.options.botToken}` },
          body: form,
          signal: AbortSignal.timeout(60_000),
        });
      } catch {
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
      return;
    }
  }
}

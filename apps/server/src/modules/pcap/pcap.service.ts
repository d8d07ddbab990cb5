import {
  userMay,
  captureSummarySchema,
  PCAP_MESSAGES,
  type CaptureEntry,
  type CaptureList,
  type CaptureSummary,
  type SessionUser,
} from '@ce/contract';
import { AppError, errorCode } from '../../core/errors.js';
import { mdLines, mdSafe } from '../../report-kit/markdown.js';
import type { WebexClient } from '../../adapters/webex-client.js';
import { analyzeCapture } from './capture/analyze.js';
import type { CaptureRow, PcapRepository } from './pcap.repository.js';

const CHUNK_BYTES = 1024 * 1024;
/** Webex takes files up to 100 MB; a larger capture is shared as its summary and its hash. */
const WEBEX_FILE_BYTES = 100 * 1024 * 1024;
/** TLS server names named in the Webex message. */
const MESSAGE_SERVER_NAMES = 10;

export interface PcapDeps {
  repository: PcapRepository;
  webex: WebexClient | null;
  maxBytes: number;
}

/** The packet-capture tool: streamed analysis, the history, and sharing with a case in Webex. */
export class PcapService {
  constructor(private readonly deps: PcapDeps) {}

  get maxBytes(): number {
    return this.deps.maxBytes;
  }

  /**
   * Reads a capture as it arrives, storing its bytes 1 MB at a time. A file that is no capture is refused
   * (nothing kept); one that breaks part-way is summarised up to there, with where and why it stopped.
   */
  async analyze(
    user: SessionUser,
    filename: string,
    file: AsyncIterable<Buffer>,
    truncated: () => boolean = () => false,
  ): Promise<CaptureEntry> {
    const id = await this.deps.repository.create(user.id, filename.slice(0, 255) || 'capture.pcap');
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let position = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      await this.deps.repository.addChunk(id, position++, Buffer.concat(pending));
      pending = [];
      pendingBytes = 0;
    };
    try {
      const analysis = await analyzeCapture(file, async (chunk) => {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= CHUNK_BYTES) await flush();
      });
      // The upload stopped at the size limit: refused, whatever was read.
      if (truncated()) throw this.tooLarge();
      if (!analysis.summary) throw new AppError(400, 'not_a_capture', analysis.refused ?? PCAP_MESSAGES.notACapture);
      await flush();
      await this.deps.repository.finish(id, analysis.summary.fileBytes, analysis.summary);
    } catch (error) {
      await this.deps.repository.remove(id);
      // The upload's stream stops with its own error at the size limit.
      if (errorCode(error) === 'FST_REQ_FILE_TOO_LARGE') throw this.tooLarge();
      throw error;
    }
    return this.entry(user, id);
  }

  private tooLarge(): AppError {
    return new AppError(400, 'file_too_large', PCAP_MESSAGES.tooLarge(Math.round(this.deps.maxBytes / 1024 / 1024)));
  }

  /** A page of the captures kept (a Super User's history holds everyone's), without their summaries. */
  async list(user: SessionUser, page: number, pageSize: number): Promise<CaptureList> {
    const { rows, total } = await this.deps.repository.list(userMay(user, 'seeAllRuns') ? null : user.id, {
      offset: (page - 1) * pageSize,
      limit: pageSize,
    });
    return {
      captures: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
      total,
      page,
      pageSize,
    };
  }

  async entry(user: SessionUser, id: string): Promise<CaptureEntry> {
    return toEntry(await this.own(user, id));
  }

  chunks(id: string): AsyncGenerator<Buffer> {
    return this.deps.repository.chunks(id);
  }

  async own(user: SessionUser, id: string): Promise<CaptureRow> {
    const row = await this.deps.repository.find(id);
    if (!row || !row.summary || (row.userId !== user.id && !userMay(user, 'seeAllRuns')))
      throw new AppError(404, 'not_found', 'This capture is not kept any more.');
    return row;
  }

  /** Sends the summary, and the file when Webex can take it, to a person in Webex with the case number. */
  async share(user: SessionUser, id: string, email: string, caseNumber: string): Promise<CaptureEntry> {
    const webex = this.deps.webex;
    if (!webex) throw new AppError(503, 'webex_not_configured', 'Webex is not configured on this server.');
    const row = await this.own(user, id);
    const summary = captureSummarySchema.parse(row.summary);
    const file =
      row.size <= WEBEX_FILE_BYTES
        ? {
            filename: row.filename,
            contentType: 'application/vnd.tcpdump.pcap',
            // Read from the database as it is sent: one chunk in memory, whatever the capture's size.
            content: () => this.chunks(id),
          }
        : undefined;
    await webex.send(email, captureMarkdown(summary, row.filename, caseNumber, user.email, file === undefined), file);
    await this.deps.repository.share(id, { email, caseNumber, at: new Date().toISOString() });
    return this.entry(user, id);
  }
}

function toEntry(row: CaptureRow): CaptureEntry {
  return {
    id: row.id,
    filename: row.filename,
    uploadedBy: row.uploadedBy,
    createdAt: row.createdAt.toISOString(),
    summary: captureSummarySchema.parse(row.summary),
    sharedWith: row.sharedWith,
  };
}

/** The Webex message: the case, the file, and what capinfos would say first. */
export function captureMarkdown(
  summary: CaptureSummary,
  filename: string,
  caseNumber: string,
  from: string,
  withoutFile: boolean,
): string {
  const top = summary.conversations
    .slice(0, 3)
    .map((item) => mdSafe`  - ${item.protocol} ${item.a} ↔ ${item.b}: ${item.bytes} bytes`);
  // A handful of names: the message stays short whatever the capture holds; the page has the rest.
  const names = summary.tlsServerNames.slice(0, MESSAGE_SERVER_NAMES).map((item) => item.name);
  const namesTotal = summary.cut.find((item) => item.list === 'tlsServerNames')?.total ?? summary.tlsServerNames.length;
  const moreNames = namesTotal - names.length;
  return mdLines([
    mdSafe`**Packet capture for case ${caseNumber}**: ${filename} (from ${from})`,
    mdSafe`- ${summary.format}, ${summary.linkTypeName}, ${summary.packets} packets, ${summary.bytes} bytes over ${summary.durationSeconds} s`,
    mdSafe`- First packet ${summary.firstPacket ?? 'n/a'}, last ${summary.lastPacket ?? 'n/a'}`,
    mdSafe`- TCP resets ${summary.tcpResets}, probable retransmissions ${summary.tcpRetransmissions}`,
    names.length > 0 &&
      mdSafe`- TLS server names: ${names.join(', ')}${moreNames > 0 ? mdSafe` and ${moreNames} more` : ''}`,
    top.length > 0 && mdLines([mdSafe`- Top conversations:`, ...top]),
    summary.problem && mdSafe`- ⚠ ${summary.problem.message}`,
    mdSafe`- SHA-256 ${summary.sha256}`,
    withoutFile && mdSafe`- The file is larger than Webex takes; it stays in the CE Toolkit for the retention period.`,
  ]).text;
}

import { Worker } from 'node:worker_threads';

interface Pending {
  resolve(bytes: Buffer): void;
  reject(error: Error): void;
}

/**
 * The process's PDF thread (pdf-worker.mjs), started with the first PDF: pdfmake's layout and compression are
 * seconds of CPU for a large report, which on this thread would keep people's requests waiting (decision 0032).
 * It ends once it has no PDF left, and the next PDF starts another; a thread that dies fails the PDFs it had.
 */
class PdfThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  render(definition: Record<string, unknown>, pageNumbered: boolean): Promise<Buffer> {
    const worker = this.worker ?? this.start();
    const id = ++this.nextId;
    return new Promise<Buffer>((resolve, reject) => {
      // A definition that cannot be copied to the thread (a function in it) throws here: the PDF fails.
      worker.postMessage({ id, definition, pageNumbered });
      this.pending.set(id, { resolve, reject });
      worker.ref();
    });
  }

  private start(): Worker {
    const worker = new Worker(new URL('./pdf-worker.mjs', import.meta.url));
    this.worker = worker;
    worker.on('message', (message: { id: number; ok: boolean; bytes?: Uint8Array; message?: string }) => {
      const job = this.pending.get(message.id);
      if (!job) return;
      this.pending.delete(message.id);
      if (this.pending.size === 0) this.retire(worker);
      if (message.ok && message.bytes)
        job.resolve(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
      else job.reject(new Error(`The PDF could not be made: ${message.message ?? 'no reason given'}`));
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (code) => this.fail(worker, new Error(`The PDF thread stopped (exit code ${code})`)));
    worker.unref();
    return worker;
  }

  /**
   * Ends an idle thread: pdfmake's layout of a large report leaves a heap of a hundred megabytes or more that V8 keeps
   * until its next collection, on a thread that may not run again for hours. The next PDF starts a new thread.
   */
  private retire(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    void worker.terminate();
  }

  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
  }
}

const thread = new PdfThread();

/**
 * Renders a pdfmake document definition to bytes, on the PDF thread. The definition is plain data (it is copied
 * there); `pageNumbered` puts "page / pages" at the foot of each page.
 */
export function renderPdf(definition: Record<string, unknown>, { pageNumbered = false } = {}): Promise<Buffer> {
  return thread.render(definition, pageNumbered);
}

export interface ReportPdf {
  /** The document's title: on the cover and in the file's properties. */
  title: string;
  organization: string;
  /** The cover's lines under the title and the organization. */
  cover: Record<string, unknown>[];
  /** What follows the table of contents. */
  body: unknown[];
}

/**
 * A report's PDF in the kit's frame: portrait A4, a cover (title, organization, the report's own lines),
 * a table of contents of the entries marked `tocItem`, the body, and page numbers in the footer.
 */
export function renderReportPdf({ title, organization, cover, body }: ReportPdf): Promise<Buffer> {
  return renderPdf(
    {
      info: { title: `${title}: ${organization}`, creator: 'CE Toolkit' },
      pageOrientation: 'portrait',
      content: [
        { text: title, fontSize: 24, bold: true, margin: [0, 160, 0, 8] },
        { text: organization, fontSize: 16 },
        ...cover,
        { toc: { title: { text: 'Contents', fontSize: 15, bold: true } }, pageBreak: 'before' },
        ...body,
      ],
    },
    { pageNumbered: true },
  );
}

/** A table with a shaded header row, at most `maxRows` rows of the body. */
export function pdfTable(
  columns: string[],
  rows: string[][],
  { maxRows, margin }: { maxRows: number; margin: [number, number, number, number] },
): Record<string, unknown> {
  return {
    table: {
      headerRows: 1,
      widths: columns.map(() => '*'),
      body: [columns.map((text) => ({ text, bold: true, fillColor: '#f1f5f9' })), ...rows.slice(0, maxRows)],
    },
    layout: 'lightHorizontalLines',
    fontSize: 8,
    margin,
  };
}

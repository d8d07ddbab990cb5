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

  /** How many steps below the process's CPU priority a thread started from now on runs (Linux). */
  priorityStep = 10;

  private start(): Worker {
    const worker = new Worker(new URL('./pdf-worker.mjs', import.meta.url), {
      workerData: { priorityStep: this.priorityStep },
    });
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
 * How far below the process's CPU priority the PDF thread runs, from the next thread started: 10 unless told
 * (decision 0032: on a saturated machine the threads answering people get the CPU first). The integration tests run
 * it at 0: their machine is saturated by other test files, not by people, and a PDF 10 steps down waited there for
 * half a minute and more of idle CPU (a report's deadline is a minute).
 */
export function setPdfThreadPriorityStep(step: number): void {
  thread.priorityStep = Math.max(0, Math.min(19, Math.round(step)));
}

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
  /**
   * The cover is the report's summary (a score, the top findings): it starts at the top of the first page rather
   * than a third of the way down, so that the first page a reader opens says what matters.
   */
  coverIsSummary?: boolean;
  /** What follows the table of contents. */
  body: unknown[];
}

/**
 * A report's PDF in the kit's frame: portrait A4, a cover (title, organization, the report's own lines),
 * a table of contents of the entries marked `tocItem`, the body, and page numbers in the footer.
 */
export function renderReportPdf({
  title,
  organization,
  cover,
  coverIsSummary = false,
  body,
}: ReportPdf): Promise<Buffer> {
  return renderPdf(
    {
      info: { title: `${title}: ${organization}`, creator: 'CE Toolkit' },
      pageOrientation: 'portrait',
      content: [
        { text: title, fontSize: 24, bold: true, margin: [0, coverIsSummary ? 0 : 160, 0, 8] },
        { text: organization, fontSize: 16 },
        ...cover,
        { toc: { title: { text: 'Contents', fontSize: 15, bold: true } }, pageBreak: 'before' },
        ...body,
      ],
    },
    { pageNumbered: true },
  );
}

/**
 * The width a page leaves for content, in points: A4 (595.28 x 841.89) less the 32-point side margins every
 * document has (pdf-worker.mjs). A node with `pageOrientation: 'landscape'` and a page break turns the pages after it.
 */
export const PDF_CONTENT_WIDTH = { portrait: 531, landscape: 777 } as const;

/**
 * Helvetica's and Helvetica-Bold's advance widths (thousandths of the font size) for the characters from space to
 * "~", from the fonts' AFM files (the PDF's standard fonts, what pdfmake lays out with); other characters count as
 * a digit's width.
 */
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 222, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,
  722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 222, 556, 556, 500, 556,
  556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334,
  260, 334, 584,
];
const HELVETICA_BOLD = [
  278, 333, 474, 556, 556, 889, 722, 278, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833,
  722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, 278, 556, 611, 556, 611,
  556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389,
  280, 389, 584,
];

/** The width of `text` in points at `size`, in Helvetica (bold when asked). */
export function textWidth(text: string, size: number, bold = false): number {
  const widths = bold ? HELVETICA_BOLD : HELVETICA;
  let total = 0;
  for (let index = 0; index < text.length; index += 1) total += widths[text.charCodeAt(index) - 32] ?? 556;
  return (total * size) / 1000;
}

const TABLE_FONT_SIZE = 8;
/** lightHorizontalLines pads a cell 8 points each side (none at the table's outer edges): counted for every column. */
const CELL_PADDING = 16;

/**
 * The narrowest a column can be: its header on one line (a header is never wrapped: a reader, and a search of the
 * file, finds it whole) and the longest word of its cells.
 */
function narrowest(header: string, cells: string[]): number {
  let widest = textWidth(header, TABLE_FONT_SIZE, true);
  for (const cell of cells)
    for (const word of cell.split(/\s+/)) widest = Math.max(widest, textWidth(word, TABLE_FONT_SIZE));
  return widest + CELL_PADDING;
}

/**
 * A table with a shaded header row, at most `maxRows` rows of the body, every column shown: columns take the width
 * their content needs, cells wrap, and a table too wide for the page (`width`, portrait's by default) is split into
 * parts by columns, one under the other, each repeating the first `keyColumns` (the key that names a row).
 */
export function pdfTable(
  columns: string[],
  rows: string[][],
  {
    maxRows,
    margin,
    width = PDF_CONTENT_WIDTH.portrait,
    keyColumns = 1,
  }: { maxRows: number; margin: [number, number, number, number]; width?: number; keyColumns?: number },
): Record<string, unknown> {
  const body = rows.slice(0, maxRows);
  const needs = columns.map((header, index) =>
    narrowest(
      header,
      body.map((row) => row[index] ?? ''),
    ),
  );
  const keys = Math.min(keyColumns, columns.length - 1);
  const keyWidth = needs.slice(0, keys).reduce((sum, need) => sum + need, 0);
  // The columns after the key, in parts that each fit beside it (a column wider than the page alone has a part).
  const parts: number[][] = [];
  let part: number[] = [];
  let used = keyWidth;
  for (let index = keys; index < columns.length; index += 1) {
    const need = needs[index] ?? 0;
    if (part.length && used + need > width) {
      parts.push(part);
      part = [];
      used = keyWidth;
    }
    part.push(index);
    used += need;
  }
  if (part.length || !parts.length) parts.push(part);
  const [left, top, right, bottom] = margin;
  const tables = parts.map((indexes, at) => {
    const shown = [...Array.from({ length: keys }, (_, index) => index), ...indexes];
    return {
      table: {
        headerRows: 1,
        widths: shown.map(() => 'auto'),
        body: [
          shown.map((index) => ({ text: columns[index] ?? '', bold: true, fillColor: '#f1f5f9', noWrap: true })),
          ...body.map((row) => shown.map((index) => row[index] ?? '')),
        ],
      },
      layout: 'lightHorizontalLines',
      fontSize: TABLE_FONT_SIZE,
      // Parts of one table sit closer to each other than to what is around them.
      margin: [left, at === 0 ? top : 4, right, at === parts.length - 1 ? bottom : 8],
    };
  });
  return tables.length === 1 ? (tables[0] ?? {}) : { stack: tables };
}

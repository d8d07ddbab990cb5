// The PDF thread (decision 0032): pdfmake lays out and compresses a report's pages here, not on the thread that
// answers people, so that a server rendering fifty reports at once still answers a page in time. Documents are
// rendered one at a time, in the order they came. Plain JavaScript: it needs no TypeScript loader.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import PdfPrinter from 'pdfmake';

// Reports are background work: on Linux this thread runs 10 below the process's CPU priority (a priority set there
// for "the calling process" is the calling thread's own; elsewhere it would be the process's), or the step its
// starter gave (setPdfThreadPriorityStep). Started by an instance's jobs thread, it starts there already (a thread
// starts at its parent thread's priority).
const step = typeof workerData?.priorityStep === 'number' ? workerData.priorityStep : 10;
if (process.platform === 'linux' && step > 0) {
  try {
    const target = Math.min(19, os.getPriority(process.pid) + step);
    if (os.getPriority(0) < target) os.setPriority(0, target);
  } catch {
    // Not allowed here: the thread runs at the process's priority.
  }
}

const printer = new PdfPrinter({
  // The PDF standard fonts: nothing to ship or download.
  Helvetica: {
    normal: 'Helvetica',
    bold: 'Helvetica-Bold',
    italics: 'Helvetica-Oblique',
    bolditalics: 'Helvetica-BoldOblique',
  },
});

/** What every document starts from; its definition says otherwise where it needs to. */
const DEFAULTS = {
  pageSize: 'A4',
  pageOrientation: 'landscape',
  pageMargins: [32, 40, 32, 40],
  defaultStyle: { font: 'Helvetica', fontSize: 9 },
};

/** "3 / 12" at the foot of each page (a function cannot cross to this thread: the caller asks for it by name). */
const pageNumbers = (page, pages) => ({
  text: `${page} / ${pages}`,
  alignment: 'center',
  fontSize: 8,
  color: '#64748b',
});

function render(definition) {
  return new Promise((resolve, reject) => {
    const document = printer.createPdfKitDocument(definition);
    const chunks = [];
    document.on('data', (chunk) => chunks.push(chunk));
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
    document.end();
  });
}

let queue = Promise.resolve();
parentPort?.on('message', ({ id, definition, pageNumbered }) => {
  queue = queue.then(async () => {
    try {
      const bytes = await render({ ...DEFAULTS, ...definition, ...(pageNumbered ? { footer: pageNumbers } : {}) });
      // The file's memory is handed over, not copied (a large report's PDF is megabytes); a small one may sit in
      // Node's shared pool of small buffers, which is copied.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      parentPort?.postMessage({ id, ok: true, bytes }, own ? [bytes.buffer] : []);
    } catch (error) {
      parentPort?.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
    }
  });
});

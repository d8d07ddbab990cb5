// The sheet parser's thread: files from users are read here, with a memory cap, so that a file built to
// exhaust memory or time ends this thread, never the server. TypeScript is loaded as the server loads it.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { parseSheet } = await import('./parse-sheet.ts');
const { SheetError } = await import('./sheet-reader.ts');

parentPort?.on('message', async ({ id, bytes, weekStart, today, tempDir }) => {
  // The reader spools sheets it meets before their strings to temporary files: into this parse's own folder,
  // which the server removes when the parse ends, however it ends. (A thread's environment is its own.)
  if (tempDir) process.env.TMPDIR = tempDir;
  try {
    const result = await parseSheet(Buffer.from(bytes), weekStart, today);
    parentPort?.postMessage({ id, ok: true, result });
  } catch (error) {
    const refused = error instanceof SheetError;
    parentPort?.postMessage({ id, ok: false, refused, message: refused ? error.message : String(error) });
  }
});
parentPort?.postMessage({ ready: true });

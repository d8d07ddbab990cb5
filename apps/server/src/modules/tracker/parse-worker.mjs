// The sheet parser's thread: files from users are read here, with a memory cap, so that a file built to
// exhaust memory or time ends this thread, never the server. TypeScript is loaded as the server loads it.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { parseSheet } = await import('./parse-sheet.ts');
const { SheetError } = await import('./sheet-reader.ts');

parentPort?.on('message', async ({ id, bytes, weekStart, today }) => {
  try {
    const result = await parseSheet(Buffer.from(bytes), weekStart, today);
    parentPort?.postMessage({ id, ok: true, result });
  } catch (error) {
    const refused = error instanceof SheetError;
    parentPort?.postMessage({ id, ok: false, refused, message: refused ? error.message : String(error) });
  }
});
parentPort?.postMessage({ ready: true });

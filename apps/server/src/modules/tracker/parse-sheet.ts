import { TRACKER_LIMITS, TRACKER_MESSAGES, type ParsedSheet } from '@ce/contract';
import { normalizeRows } from './normalize.js';
import { detectKind, readRows, SheetError } from './sheet-reader.js';

/** A file's bytes to the rows the table shows and the warnings about them (or a SheetError). */
export async function parseSheet(bytes: Buffer, weekStart: string, today: string): Promise<ParsedSheet> {
  if (bytes.length >= TRACKER_LIMITS.fileBytes) throw new SheetError(TRACKER_MESSAGES.tooLarge);
  const kind = detectKind(bytes);
  return normalizeRows(await readRows(bytes, kind), weekStart, today);
}

import type { BackupKind } from './archive.js';
import { backupKind } from './kinds/index.js';

/**
 * Why an item's configuration cannot be read, in words ("agents must be a list of names"); null when it can.
 * Each kind's `configShape` (kinds/) is what drift, the plan and the restore's writes read: the fields they
 * read, of the types they read them as. Every other field is kept as it is (restore sends it back). An archive
 * whose items differ is refused at upload with the field and what it must be.
 */
export function configProblem(kind: BackupKind, config: Record<string, unknown>): string | null {
  const checked = backupKind(kind).configShape.safeParse(config);
  if (checked.success) return null;
  const [issue] = checked.error.issues;
  const field = (issue?.path ?? []).filter((part) => typeof part !== 'number').join('.');
  return `${field} ${issue?.message ?? 'is not valid'}`.trim();
}

/** Why an archive's key of a kind cannot be written back (a test's type names its URL), or null. */
export const keyProblem = (kind: BackupKind, key: string): string | null => backupKind(kind).keyProblem?.(key) ?? null;

/** Whether JSON text nests arrays and objects deeper than `limit`, read before it is parsed (parsing that is slow). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === 0x5c)
        at++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/** Whether a parsed value holds a NUL character in a key or a string (the database's text refuses it). */
export function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value && typeof value === 'object')
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNul(item));
  return false;
}

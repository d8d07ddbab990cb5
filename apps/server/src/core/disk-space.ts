import { statfsSync } from 'node:fs';

/** Below this much free space the embedded database's folder is full for the toolkit: pages cannot be extended. */
export const DISK_FREE_MIN_BYTES = 32 * 1024 * 1024;

/**
 * For `/readyz` on the embedded database: 'ok', or "full: 12 MB free" when its folder's file system has less than
 * `minimum` left (the database then fails its writes; jobs hand their work back until space returns).
 */
export function diskState(
  folder: string,
  minimum = DISK_FREE_MIN_BYTES,
  statfs: (folder: string) => { bavail: number; bsize: number } = statfsSync,
): string {
  try {
    const { bavail, bsize } = statfs(folder);
    const free = Number(bavail) * Number(bsize);
    return free >= minimum ? 'ok' : `full: ${Math.floor(free / (1024 * 1024))} MB free`;
  } catch {
    return 'unknown';
  }
}

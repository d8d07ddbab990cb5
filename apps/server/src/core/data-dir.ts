import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Files and folders this process creates are its own alone (0600 and 0700). */
export function restrictNewFiles(): void {
  try {
    process.umask(0o077);
  } catch {
    // Worker threads cannot change the umask; the folder's own mode still keeps others out.
  }
}

/**
 * Creates DATA_DIR with mode 0700 and takes read access away from others on everything already in it
 * (folders 0700, files 0600): the embedded database holds sealed customer tokens and reports.
 */
export function prepareDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const visit = (entry: string) => {
    const stat = lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      if ((stat.mode & 0o077) !== 0) chmodSync(entry, 0o700);
      for (const name of readdirSync(entry)) visit(path.join(entry, name));
    } else if ((stat.mode & 0o077) !== 0) {
      chmodSync(entry, stat.mode & 0o700);
    }
  };
  visit(dataDir);
}

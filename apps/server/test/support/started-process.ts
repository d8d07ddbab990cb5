import { spawn, type ChildProcess } from 'node:child_process';
import { entryArgs, type Entry } from './server-bundle.js';

/** A process of the product (the server or the standalone sandbox) that printed its address. */
export interface StartedProcess {
  process: ChildProcess;
  /** The address it printed, `http://host:port`. */
  url: string;
  /** Everything it printed so far (kept as chunks and joined when asked: a busy process prints megabytes). */
  output: () => string;
}

/**
 * Starts an entry point and waits for it to print `running at <address>`. One that exits first, or prints no address
 * within the time given (it is then killed), is an error holding what it printed.
 */
export function startEntry(
  entry: Entry,
  env: NodeJS.ProcessEnv,
  options: { name?: string; cwd?: string; timeoutMs?: number; onSpawn?: (child: ChildProcess) => void } = {},
): Promise<StartedProcess> {
  const name = options.name ?? entry;
  const child = spawn(process.execPath, entryArgs(entry), { env, cwd: options.cwd });
  options.onSpawn?.(child);
  const chunks: Buffer[] = [];
  const output = () => Buffer.concat(chunks).toString();
  let started = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start:\n${output()}`));
    }, options.timeoutMs ?? 120_000);
    const read = (chunk: Buffer) => {
      chunks.push(chunk);
      if (started) return;
      const match = /running at (http:\/\/[^\s/]+)/.exec(output());
      if (!match?.[1]) return;
      started = true;
      clearTimeout(timer);
      resolve({ process: child, url: match[1], output });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`${name} exited (${code}) before it started:\n${output()}`));
    });
  });
}

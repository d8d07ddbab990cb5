import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { TRACKER_MESSAGES, type ParsedSheet } from '@ce/contract';
import { AppError, errorCode } from '../../core/errors.js';

interface Job {
  id: number;
  /** Whose file it is: one file at a time per user. */
  owner: string;
  bytes: Buffer;
  weekStart: string;
  today: string;
  resolve: (result: ParsedSheet) => void;
  reject: (error: Error) => void;
}

export interface SheetParserOptions {
  /** A file taking longer than this is refused and its thread replaced. */
  timeoutMs?: number;
  /** The parsing thread's heap; a file needing more ends the thread, not the server. */
  memoryMb?: number;
  /** Files waiting beyond this many are refused with 503 (the server is busy reading others). */
  maxQueue?: number;
  /**
   * Where each parse gets a folder of its own for the reader's temporary files, removed when the parse ends
   * however it ends; folders left by a process that died are swept at start.
   */
  tempRoot?: string;
  logger?: FastifyBaseLogger;
}

/** A temporary folder older than this is stale whoever made it: no parse lives that long. */
const STALE_FOLDER_MS = 30 * 60_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
};

const refused = (message: string) => new AppError(400, 'invalid_file', message);

/**
 * Reads uploaded spreadsheets one at a time on a worker thread with a memory cap and a time limit, so no
 * file can stall or crash the server: a thread that runs out of memory or time is replaced and the file is
 * refused with a clear message.
 */
export class SheetParser {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly queue: Job[] = [];
  private current: Job | null = null;
  private timer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private readonly timeoutMs: number;
  private readonly memoryMb: number;
  private readonly maxQueue: number;
  private readonly tempRoot: string;
  /** The current parse's temporary folder. */
  private folder: string | null = null;

  constructor(private readonly options: SheetParserOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.memoryMb = options.memoryMb ?? 384;
    this.maxQueue = options.maxQueue ?? 16;
    this.tempRoot = options.tempRoot ?? path.join(os.tmpdir(), 'ce-toolkit-sheets');
    this.sweep();
  }

  /** Reads a file of `owner`'s: one at a time per user, so no one user keeps the others waiting. */
  parse(bytes: Buffer, weekStart: string, today: string, owner: string): Promise<ParsedSheet> {
    if (this.current?.owner === owner || this.queue.some((job) => job.owner === owner))
      return Promise.reject(
        new AppError(429, 'parse_in_progress', 'Your previous file is still being read. Wait for it, then try again.'),
      );
    if (this.queue.length >= this.maxQueue)
      return Promise.reject(new AppError(503, 'busy', 'The server is reading other files. Try again in a minute.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, owner, bytes, weekStart, today, resolve, reject });
      void this.pump();
    });
  }

  /** Removes the temporary folders of parses whose process is gone (a crash, a kill) or that are stale. */
  private sweep(): void {
    mkdirSync(this.tempRoot, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(this.tempRoot)) {
      const folder = path.join(this.tempRoot, name);
      const pid = Number(/^(\d+)-/.exec(name)?.[1] ?? 0);
      try {
        const stale = Date.now() - statSync(folder).mtimeMs > STALE_FOLDER_MS;
        if (stale || pid === 0 || (pid !== process.pid && !alive(pid)))
          rmSync(folder, { recursive: true, force: true });
      } catch (error) {
        this.options.logger?.warn({ err: error, folder }, 'a stale temporary folder could not be removed');
      }
    }
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    for (const job of this.queue.splice(0)) job.reject(new AppError(503, 'closing', 'The server is shutting down.'));
    if (worker) await worker.terminate();
    this.removeFolder();
  }

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = new Worker(new URL('./parse-worker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.memoryMb, maxYoungGenerationSizeMb: 64 },
    });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: { ready?: boolean }) => {
        if (message.ready) {
          worker.off('message', onMessage);
          resolve();
        }
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
    worker.on(
      'message',
      (message: { id?: number; ok?: boolean; refused?: boolean; message?: string; result?: ParsedSheet }) => {
        const job = this.current;
        if (message.id === undefined || !job || message.id !== job.id) return;
        this.finish();
        if (message.ok && message.result) job.resolve(message.result);
        else if (message.refused) job.reject(refused(message.message ?? TRACKER_MESSAGES.emptyFile));
        else {
          this.options.logger?.warn({ err: message.message }, 'a spreadsheet could not be read');
          job.reject(refused(TRACKER_MESSAGES.emptyFile));
        }
        void this.pump();
      },
    );
    worker.on('error', (error) => this.options.logger?.warn({ err: error }, 'the sheet parser thread failed'));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.ready = null;
      const job = this.current;
      if (job) {
        this.finish();
        job.reject(refused('The file is too large or too complex to read. Save it again with only the hours rows.'));
      }
      void this.pump();
    });
    return this.ready;
  }

  private finish(): void {
    // An idle thread does not keep the process alive; one reading a file does.
    this.worker?.unref();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.current = null;
    this.removeFolder();
  }

  private removeFolder(): void {
    const folder = this.folder;
    this.folder = null;
    if (folder) rmSync(folder, { recursive: true, force: true });
  }

  private async pump(): Promise<void> {
    const job = this.current ? undefined : this.queue.shift();
    if (!job) return;
    this.current = job;
    try {
      await this.start();
      this.folder = mkdtempSync(path.join(this.tempRoot, `${process.pid}-`));
    } catch (error) {
      this.finish();
      job.reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const worker = this.worker;
    if (!worker) return;
    worker.ref();
    this.timer = setTimeout(() => {
      this.options.logger?.warn('a spreadsheet took too long to read; its thread is replaced');
      this.finish();
      this.worker = null;
      this.ready = null;
      void worker.terminate();
      job.reject(refused('The file took too long to read. Save it again with only the hours rows.'));
      void this.pump();
    }, this.timeoutMs);
    // The bytes are copied to the thread; the request keeps its own buffer.
    worker.postMessage({
      id: job.id,
      bytes: job.bytes,
      weekStart: job.weekStart,
      today: job.today,
      tempDir: this.folder,
    });
  }
}

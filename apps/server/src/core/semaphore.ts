/**
 * At most `limit` tasks at once; others wait in line, and past `maxWaiting` waiting tasks a new one is
 * refused at once with `busy()` rather than piling up (a flood of slow work must not take the server down).
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private limit: number,
    private maxWaiting: number,
    private readonly busy: () => Error,
  ) {}

  resize(limit: number, maxWaiting: number): void {
    this.limit = limit;
    this.maxWaiting = maxWaiting;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.maxWaiting) throw this.busy();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

import { describe, expect, it } from 'vitest';
import { LeaseLostError, type Lease, type Leases, type LeasedTable } from './lease.js';
import { LeasedJobs } from './leased-job.js';

// A job whose work meets a database fault: handed back while its claim holds; told lost when another holds it.
describe('a leased job stopped by a database fault', () => {
  const lease: Lease = { id: 'r1', owner: 'worker-1', generation: 1 };
  /** A connection the database ended (a transaction left idle while the process was stopped). */
  const ended = Object.assign(new Error('Client has encountered a connection error and is not queryable'), {
    code: '57P01',
  });

  async function runWith(check: () => Promise<void>): Promise<string[]> {
    const warned: string[] = [];
    const logger = {
      info: () => undefined,
      error: () => undefined,
      warn: (_: object, message: string) => warned.push(message),
    };
    const leases = {
      claim: async () => ({ lease, row: { id: lease.id } }),
      renew: async () => true,
      check,
      release: async () => true,
    } as unknown as Leases<LeasedTable>;
    const jobs = new LeasedJobs({ logger, instanceId: 'worker-1', leaseMs: 60_000 }, {
      name: 'report',
      leases,
    } as never);
    await jobs.run(lease.id, {
      work: async () => Promise.reject(ended),
      done: async () => true,
      failed: async () => true,
      ended: async () => undefined,
    });
    return warned;
  }

  it('says the lease was lost when another worker holds the job by now', async () => {
    expect(await runWith(() => Promise.reject(new LeaseLostError(lease.id)))).toEqual([
      'report lease lost to another worker; this one stops',
    ]);
  });

  it('hands the job back while its claim still holds, or the database cannot say', async () => {
    expect(await runWith(() => Promise.resolve())).toEqual(['report handed back: the database failed it']);
    expect(await runWith(() => Promise.reject(ended))).toEqual(['report handed back: the database failed it']);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { LeaseLostError, whileLeased, type Lease } from './lease.js';

const lease: Lease = { id: 'job-1', owner: 'worker-a', generation: 3 };
const timing = { leaseMs: 60, heartbeatMs: 5 };

/** Work that runs until its signal aborts, as a job waiting on platform calls does. */
const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));

describe('whileLeased', () => {
  it('aborts the work when a renewal finds the lease taken by another worker', async () => {
    const renewals: Lease[] = [];
    const renew = async (held: Lease) => {
      renewals.push(held);
      return renewals.length < 2;
    };
    await expect(whileLeased(lease, renew, untilAborted, timing)).rejects.toBeInstanceOf(LeaseLostError);
    expect(renewals).toEqual([lease, lease]);
  });

  it('keeps working through failed renewals while the lease lasts, and stops once it has run out', async () => {
    // The product's clock, moved by the test: a busy machine cannot stretch a heartbeat past the lease.
    vi.useFakeTimers();
    try {
      let failures = 0;
      const renew = async () => {
        failures += 1;
        throw new Error('database unreachable');
      };
      let ended: unknown = null;
      const running = whileLeased(lease, renew, untilAborted, timing).catch((error: unknown) => {
        ended = error;
      });
      await vi.advanceTimersByTimeAsync(timing.leaseMs - timing.heartbeatMs);
      expect(ended).toBeNull();
      expect(failures).toBe(timing.leaseMs / timing.heartbeatMs - 1);
      await vi.advanceTimersByTimeAsync(timing.heartbeatMs);
      await running;
      expect(ended).toBeInstanceOf(LeaseLostError);
      expect(failures).toBe(timing.leaseMs / timing.heartbeatMs);
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers the work's result while the lease holds", async () => {
    const result = await whileLeased(
      lease,
      async () => true,
      async () => 'done',
      timing,
    );
    expect(result).toBe('done');
  });
});

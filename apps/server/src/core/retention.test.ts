import { describe, expect, it } from 'vitest';
import { retentionJob } from './retention.js';

describe('a nightly retention job', () => {
  it('deletes, at night, what is older than the retention period, and says how much went', async () => {
    const cutoffs: number[] = [];
    const logged: object[] = [];
    const job = retentionJob(
      'captures.retention',
      {
        deleteOlderThan: async (date: Date) => {
          cutoffs.push(date.getTime());
          return 3;
        },
      },
      30,
      { info: (object) => logged.push(object) },
    );
    const before = Date.now();
    await job.handle(undefined);
    expect(job.queue).toBe('captures.retention');
    expect(job.cron).toBe('17 3 * * *');
    expect(cutoffs).toHaveLength(1);
    expect(Math.abs(before - 30 * 86_400_000 - cutoffs[0]!)).toBeLessThan(5_000);
    expect(logged).toEqual([{ deleted: 3, retentionDays: 30, queue: 'captures.retention' }]);
  });
});

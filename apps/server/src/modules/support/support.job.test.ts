import { describe, expect, it } from 'vitest';
import { retentionJobs } from './support.job.js';

describe('the nightly retention of the tools', () => {
  it('deletes, in every store, what is older than the retention period', async () => {
    const cutoffs: [string, number][] = [];
    const store = (name: string) => ({
      deleteOlderThan: async (date: Date) => {
        cutoffs.push([name, date.getTime()]);
        return 1;
      },
    });
    const logged: object[] = [];
    const [job] = retentionJobs({ captures: store('captures'), diagnostics: store('diagnostics') }, 30, {
      info: (object) => logged.push(object),
    });
    const before = Date.now();
    await job?.handle(undefined);
    expect(job?.cron).toBe('17 3 * * *');
    expect(cutoffs.map(([name]) => name)).toEqual(['captures', 'diagnostics']);
    for (const [, at] of cutoffs) expect(Math.abs(before - 30 * 86_400_000 - at)).toBeLessThan(5_000);
    expect(logged).toHaveLength(2);
  });
});

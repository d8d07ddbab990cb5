import { describe, expect, it } from 'vitest';
import type { BulkRun } from '@ce/contract';
import { runWaits } from './run-waits';

const run = (id: string, changes: Partial<BulkRun>): BulkRun => ({
  id,
  kind: 'tests',
  status: 'running',
  ahead: null,
  requestedBy: 'tam@demo.local',
  organizationName: 'Acme',
  accountGroups: [],
  templates: [],
  error: null,
  totals: { total: 1, pending: 1, done: 0, skipped: 0, failed: 0 },
  items: [],
  createdAt: '2026-01-05T10:00:00.000Z',
  startedAt: '2026-01-05T10:00:33.900Z',
  finishedAt: null,
  // The server's working time: what the page showed before, after a 34 s wait.
  executionTimeMs: null,
  undoOf: null,
  undoneBy: null,
  ...changes,
});
const finished = { status: 'done', finishedAt: '2026-01-05T10:00:33.943Z', executionTimeMs: 43 } as const;

describe('runWaits', () => {
  it('counts a run started here from the click to the first read that finds it finished', () => {
    runWaits.started('r1', 1_000);
    runWaits.read(run('r1', {}), 5_000);
    expect(runWaits.of(run('r1', {}))).toBeNull();
    runWaits.read(run('r1', finished), 35_250);
    // Read again later (another observer, a refetch): the wait does not grow.
    runWaits.read(run('r1', finished), 90_000);
    expect(runWaits.of(run('r1', finished))).toBe(34_250);
  });

  it('counts a run opened otherwise from its request to its end, not from its first operation', () => {
    runWaits.read(run('r2', finished), 35_250);
    expect(runWaits.of(run('r2', finished))).toBe(33_943);
    expect(runWaits.of(run('r2', {}))).toBeNull();
  });
});

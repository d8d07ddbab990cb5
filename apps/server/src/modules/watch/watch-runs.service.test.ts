import { describe, expect, it } from 'vitest';
import type { SessionUser } from '@ce/contract';
import type { AuditLog } from '../audit/index.js';
import type { WatchRunRow, WatchRunsRepository } from './watch-runs.repository.js';
import { WatchRunsService } from './watch-runs.service.js';
import type { WatchService } from './watch.service.js';

const at = new Date('2026-11-27T07:00:00Z');
const groups = ['Production', 'Staging', 'Lab'].map((name, index) => ({
  aid: String(index + 1),
  accountGroupName: name,
}));

/** A stored run of the watch: every column, as the table holds it. */
const row = (id: string, status: string, kind = 'both'): WatchRunRow => ({
  id,
  userId: 'u-1',
  kind,
  organizationId: '9000',
  organizationName: 'Acme Corporation',
  status,
  error: null,
  tokenId: null,
  jobId: null,
  createdAt: at,
  startedAt: null,
  finishedAt: status === 'done' ? at : null,
  leaseUntil: null,
  leaseOwner: null,
  leaseGeneration: 0,
  watchId: 'w-1',
  accountGroups: groups,
  dueAt: at,
  trigger: 'now',
  score: status === 'done' ? 80 : null,
  findings: null,
  backups: null,
  measurements: null,
  changes: null,
  deliveryStatus: status === 'done' ? 'sent' : 'pending',
  deliveryError: null,
  message: null,
});

/** The runs service over these stored runs, their reports (by run id) and their backups (by run id). */
function service(
  rows: WatchRunRow[],
  reports: Record<string, { status: string; done: number; total: number }>,
  backups: Record<string, string[]>,
) {
  return new WatchRunsService({
    runs: { list: async () => rows } as unknown as WatchRunsRepository,
    watches: { visibleRow: async () => ({}) } as unknown as WatchService,
    audit: {} as AuditLog,
    send: async () => undefined,
    reportOf: async () =>
      new Map(Object.entries(reports).map(([runId, report]) => [runId, { id: `r-${runId}`, ...report }])),
    backupsOf: async (runId) => (backups[runId] ?? []).map((status) => ({ status })),
    runNowEveryMinutes: 0,
    clock: () => at,
  });
}

const tam = { id: 'u-1' } as SessionUser;

describe("a watch's runs, as its card lists them", () => {
  it("says where a run under way stands: its health check's steps and its backups ended of all", async () => {
    const listed = await service(
      [row('now', 'running'), row('before', 'done')],
      { now: { status: 'running', done: 2, total: 4 }, before: { status: 'done', done: 4, total: 4 } },
      { now: ['done', 'running'] },
    ).list(tam, 'w-1');
    expect(listed.map((run) => run.progress)).toEqual([
      { health: { status: 'running', done: 2, total: 4 }, backups: { done: 1, total: 3 } },
      null,
    ]);
    expect(listed.map((run) => run.reportId)).toEqual(['r-now', 'r-before']);
  });

  it('says a run that has not started its parts yet, and one that makes no backup', async () => {
    const [queued] = await service([row('now', 'queued')], {}, {}).list(tam, 'w-1');
    expect(queued?.progress).toEqual({ health: null, backups: { done: 0, total: 3 } });
    const [healthOnly] = await service(
      [row('now', 'running', 'health')],
      { now: { status: 'queued', done: 0, total: 0 } },
      {},
    ).list(tam, 'w-1');
    expect(healthOnly?.progress).toEqual({ health: { status: 'queued', done: 0, total: 0 }, backups: null });
  });
});

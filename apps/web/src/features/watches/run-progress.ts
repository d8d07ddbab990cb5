import type { WatchRun } from '@ce/contract';

/** What a starting run shows until its parts say more: at once after "Run now", before the server answers. */
export const STARTING = 'Starting…';

function healthWords(health: NonNullable<NonNullable<WatchRun['progress']>['health']>): string {
  if (health.status === 'queued') return 'Health check: waiting for its turn';
  if (health.status === 'done') return 'Health check: done';
  if (health.status === 'failed') return 'Health check: failed';
  // Its steps as My Reports counts them: each account group read, then the usage.
  return health.total > 0 ? `Health check: ${health.done} of ${health.total} steps` : 'Health check: starting';
}

/**
 * Where a run under way stands, in words: "Starting…" until a part began, then "Health check: 2 of 7 steps ·
 * Backups: 1 of 6 account groups"; null once the run ended.
 */
export function runProgressWords(run: Pick<WatchRun, 'status' | 'progress'>): string | null {
  if (run.status !== 'queued' && run.status !== 'running') return null;
  const { health, backups } = run.progress ?? { health: null, backups: null };
  if (run.status === 'queued' || (!health && (!backups || backups.done === 0))) return STARTING;
  const parts = [
    ...(health ? [healthWords(health)] : []),
    ...(backups ? [`Backups: ${backups.done} of ${backups.total} account groups`] : []),
  ];
  return parts.join(' · ');
}

import { describe, expect, it } from 'vitest';
import { runProgressWords, STARTING } from './run-progress';

describe("a watch run's progress, in words", () => {
  it('says a queued run, or one whose parts have not begun, is starting', () => {
    expect(runProgressWords({ status: 'queued', progress: { health: null, backups: { done: 0, total: 6 } } })).toBe(
      STARTING,
    );
    expect(runProgressWords({ status: 'running', progress: { health: null, backups: null } })).toBe(STARTING);
  });

  it("says the health check's steps and the backups ended, then nothing once the run ended", () => {
    const progress = { health: { status: 'running' as const, done: 2, total: 7 }, backups: { done: 1, total: 6 } };
    expect(runProgressWords({ status: 'running', progress })).toBe(
      'Health check: 2 of 7 steps · Backups: 1 of 6 account groups',
    );
    expect(
      runProgressWords({
        status: 'running',
        progress: { health: { status: 'queued', done: 0, total: 0 }, backups: null },
      }),
    ).toBe('Health check: waiting for its turn');
    expect(runProgressWords({ status: 'done', progress: null })).toBeNull();
  });
});

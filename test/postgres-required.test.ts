import { afterEach, describe, expect, it, vi } from 'vitest';
import { postgresRuns } from '../apps/server/test/support/postgres-required.js';

describe('suites that need PostgreSQL', () => {
  afterEach(() => vi.restoreAllMocks());

  it('run when DATABASE_URL is set', () => {
    expect(postgresRuns('Scale-out tests', { DATABASE_URL: 'postgres://db/x', CI: 'true' })).toBe(true);
  });

  it('fail in CI without a database instead of skipping', () => {
    expect(() => postgresRuns('Scale-out tests', { CI: 'true' })).toThrow(
      'Scale-out tests need PostgreSQL, and CI runs every suite: set DATABASE_URL.',
    );
  });

  it('say they did not run elsewhere', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(postgresRuns('Scale-out tests', {})).toBe(false);
    expect(warn).toHaveBeenCalledWith('Scale-out tests NOT RUN: they need PostgreSQL (set DATABASE_URL).');
  });
});

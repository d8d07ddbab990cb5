/**
 * Whether the suites that need PostgreSQL run. Outside CI they say plainly that they did not; in CI (where
 * `.ci/run` starts PostgreSQL and sets DATABASE_URL) a missing database fails the run instead of skipping.
 */
export function postgresRuns(suite: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.DATABASE_URL) return true;
  if (env.CI) throw new Error(`${suite} need PostgreSQL, and CI runs every suite: set DATABASE_URL.`);
  console.warn(`${suite} NOT RUN: they need PostgreSQL (set DATABASE_URL).`);
  return false;
}

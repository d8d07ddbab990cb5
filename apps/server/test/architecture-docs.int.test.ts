import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './build-test-app.js';

// docs/architecture.md names every web feature, server module, table and job; this reads them back against the
// folders, the migrated schema and the queues a working instance registers, so the page cannot drift from the tree.

const root = new URL('../../../', import.meta.url);
const architecture = readFileSync(new URL('docs/architecture.md', root), 'utf8');

const folders = (relative: string) =>
  readdirSync(new URL(relative, root), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** The backticked names in the page's bullet that starts with `lead`, up to the next bullet of the same level. */
function namesIn(lead: string): string[] {
  const start = architecture.indexOf(`\n- ${lead}`);
  expect(start, `docs/architecture.md has a bullet starting "- ${lead}"`).toBeGreaterThan(-1);
  const rest = architecture.slice(start + 1);
  const end = rest.slice(2).search(/\n(- |## )/);
  const bullet = end === -1 ? rest : rest.slice(0, end + 2);
  return [...bullet.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
}

const mentioned = (name: string) => architecture.includes(`\`${name}\``);

describe('docs/architecture.md against the tree', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp('pglite');
  });
  afterAll(async () => {
    await testApp?.close();
  });
  const names = async (query: string) =>
    ((await testApp.database.sql.executeSql(query)).rows as { name: string }[]).map((row) => row.name);

  it('lists exactly the web features there are', () => {
    const listed = namesIn('`features/<tool>/`').filter((name) => /^[a-z-]+$/.test(name));
    expect([...new Set(listed)].sort()).toEqual(folders('apps/web/src/features/'));
  });

  it('names every server module', () => {
    expect(folders('apps/server/src/modules/').filter((module) => !mentioned(module))).toEqual([]);
  });

  it('lists exactly the tables and views of the migrated schema', async () => {
    const actual = (
      await names("select table_name as name from information_schema.tables where table_schema = 'public'")
    ).filter((name) => !name.startsWith('__drizzle'));
    const listed = namesIn('Tables:').filter((name) => /^[a-z_]+$/.test(name));
    expect([...new Set(listed)].sort()).toEqual([...new Set(actual)].sort());
  });

  it('lists exactly the jobs a working instance registers', async () => {
    // One report queue per kind: the page names them as `reports.generate.<kind>`.
    const queues = (await names('select name from pgboss.queue')).filter((name) => !name.startsWith('__pgboss'));
    const actual = new Set(queues.map((name) => name.replace(/^reports\.generate\..+$/, 'reports.generate.<kind>')));
    const listed = namesIn('Jobs').filter((name) => /^[a-z-]+(\.[a-z<>-]+)+$/.test(name));
    expect([...new Set(listed)].sort()).toEqual([...actual].sort());
  });
});

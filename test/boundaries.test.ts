import { existsSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the lint configuration is plain JavaScript, without type declarations.
import { serverBoundaries, webBoundaries } from '../eslint.boundaries.js';

/** The layer rule exactly as `npm run lint` applies it, run on fixture imports at real paths. */
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser } },
    webBoundaries,
    serverBoundaries,
  ],
});

async function problems(file: string, from: string): Promise<string[]> {
  // The rule classifies what an import resolves to: a fixture naming a file that is gone would prove nothing.
  const target = path.resolve(path.dirname(file), from.replace(/\.js$/, ''));
  expect(
    ['.ts', '.tsx'].some((extension) => existsSync(`${target}${extension}`)),
    `${from} exists`,
  ).toBe(true);
  const [result] = await eslint.lintText(`import * as imported from '${from}';\nexport const used = imported;\n`, {
    filePath: `${process.cwd()}/${file}`,
  });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('the web layers: shared -> features -> app', () => {
  it('refuses a feature importing another feature, by any path', async () => {
    expect(await problems('apps/web/src/features/bulk/components/fixture.tsx', '../../reports/api/reports')).toEqual([
      'boundaries/dependencies: feature code may not import feature code (shared -> features -> app)',
    ]);
  });

  it('refuses shared code importing a feature', async () => {
    expect(await problems('apps/web/src/lib/fixture.ts', '../features/bulk/api/runs')).toEqual([
      'boundaries/dependencies: shared code may not import feature code (shared -> features -> app)',
    ]);
    expect(await problems('apps/web/src/components/ui/fixture.tsx', '../../app/router')).toEqual([
      'boundaries/dependencies: shared code may not import app code (shared -> features -> app)',
    ]);
  });

  it('lets a feature use its own files and shared code, and the app use anything', async () => {
    expect(await problems('apps/web/src/features/bulk/components/fixture.tsx', '../api/runs')).toEqual([]);
    expect(await problems('apps/web/src/features/bulk/components/fixture.tsx', '../../../lib/api-client')).toEqual([]);
    expect(await problems('apps/web/src/app/routes/fixture.tsx', '../../features/reports/api/reports')).toEqual([]);
  });
});

const SERVER_RULE =
  'boundaries/dependencies: {{type}} code may not import server-module code here (shared -> modules through their index or service -> app)';
const refused = (type: string) => [SERVER_RULE.replace('{{type}}', type)];

describe('the server layers: shared -> modules (through their public entry) -> app', () => {
  it("refuses a module importing another module's repository, routes or internal files", async () => {
    const from = 'apps/server/src/modules/identity/fixture.ts';
    expect(await problems(from, '../users/users.repository.js')).toEqual(refused('server-module'));
    expect(await problems(from, '../auth/auth.routes.js')).toEqual(refused('server-module'));
    expect(await problems('apps/server/src/modules/tracker/fixture.ts', '../reports/reports.job.js')).toEqual(
      refused('server-module'),
    );
  });

  it('refuses shared code importing a module', async () => {
    expect(await problems('apps/server/src/core/fixture.ts', '../modules/auth/auth.service.js')).toEqual(
      refused('server-shared'),
    );
    expect(await problems('apps/server/src/report-kit/fixture.ts', '../modules/reports/report-generator.js')).toEqual(
      refused('server-shared'),
    );
  });

  it("lets a module use its own files, shared code, and another module's index or service", async () => {
    const from = 'apps/server/src/modules/identity/fixture.ts';
    expect(await problems(from, './identity.repository.js')).toEqual([]);
    expect(await problems(from, '../users/index.js')).toEqual([]);
    expect(await problems(from, '../auth/auth.service.js')).toEqual([]);
    expect(await problems(from, '../../core/errors.js')).toEqual([]);
    expect(await problems(from, '../../report-kit/html.js')).toEqual([]);
    expect(await problems('apps/server/src/cli/fixture.ts', '../modules/users/users.repository.js')).toEqual([]);
  });
});

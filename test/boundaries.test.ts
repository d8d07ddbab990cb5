import { existsSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the lint configuration is plain JavaScript, without type declarations.
import { webBoundaries } from '../eslint.boundaries.js';

/** The layer rule exactly as `npm run lint` applies it, run on fixture imports at real paths. */
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser } }, webBoundaries],
});

async function problems(file: string, from: string): Promise<string[]> {
  // The rule classifies what an import resolves to: a fixture naming a file that is gone would prove nothing.
  const target = path.resolve(path.dirname(file), from);
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

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The repository's tracked source files (TypeScript and scripts). */
const sources = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.mjs'], { encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);

/** Generated code and the contract's schemas may be long; nothing else is. */
const EXEMPT = [/^apps\/server\/migrations\//, /^packages\/contract\/src\/(?!.*\.test\.ts$)/];
const MAX_LINES = 400;

describe('the shape of the code', () => {
  it(`keeps every source file within ${MAX_LINES} lines`, () => {
    const long = sources
      .filter((file) => !EXEMPT.some((pattern) => pattern.test(file)))
      .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it('has no cycle between server modules', () => {
    const MODULES = 'apps/server/src/modules/';
    const edges = new Map<string, Set<string>>();
    for (const file of sources.filter((name) => name.startsWith(MODULES) && !name.endsWith('.test.ts'))) {
      const from = file.slice(MODULES.length).split('/')[0] ?? '';
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier ?? ''));
        if (!target.startsWith(MODULES)) continue;
        const to = target.slice(MODULES.length).split('/')[0] ?? '';
        if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    const cycles: string[] = [];
    const visit = (module: string, trail: string[]) => {
      if (trail.includes(module)) {
        cycles.push([...trail.slice(trail.indexOf(module)), module].join(' -> '));
        return;
      }
      for (const next of edges.get(module) ?? []) visit(next, [...trail, module]);
    };
    for (const module of edges.keys()) visit(module, []);
    expect(edges.size).toBeGreaterThan(5);
    expect(cycles).toEqual([]);
  });
});

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

const MODULES = 'apps/server/src/modules/';
/** A module's source files (tests aside), as `[module, path inside the module, whole path]`. */
const moduleFiles = sources
  .filter((file) => file.startsWith(MODULES) && !file.endsWith('.test.ts'))
  .map((file) => {
    const [module = '', ...rest] = file.slice(MODULES.length).split('/');
    return { module, inside: rest.join('/'), file };
  });
/** The role files a module may have, at its top: `<module>.<role>.ts`, or `<module>-<part>.<role>.ts` for several. */
const ROLES = ['routes', 'service', 'repository', 'job', 'notifications', 'runs'];
const KEBAB = '[a-z0-9]+(?:-[a-z0-9]+)*';

/** Which rule each of a module's files breaks: its folder, its name, its role. */
function namingProblems(): string[] {
  const problems: string[] = [];
  const modules = [...new Set(moduleFiles.map(({ module }) => module))];
  for (const module of modules) {
    if (!moduleFiles.some((entry) => entry.module === module && entry.inside === 'index.ts')) {
      problems.push(`${MODULES}${module}: has no index.ts (how the module registers itself)`);
    }
  }
  for (const { module, inside, file } of moduleFiles) {
    const folders = [module, ...inside.split('/').slice(0, -1)];
    const name = inside.split('/').at(-1) ?? '';
    const named = new RegExp(`^(${KEBAB})(?:\\.(${KEBAB}))?\\.(?:ts|mjs)$`).exec(name);
    if (folders.some((folder) => !new RegExp(`^${KEBAB}$`).test(folder)) || !named) {
      problems.push(`${file}: folders and files are named in kebab-case (\`name.ts\` or \`name.<role>.ts\`)`);
      continue;
    }
    const [, base = '', role] = named;
    if (role === undefined || !ROLES.includes(role)) continue;
    if (inside !== name) problems.push(`${file}: a ${role} file sits at the top of its module`);
    else if (base !== module && !base.startsWith(`${module}-`)) {
      problems.push(`${file}: a ${role} file is named ${module}.${role}.ts (or ${module}-<part>.${role}.ts)`);
    }
  }
  return problems;
}

/** What a pure planner may not import: anything that reaches outside the process or the request. */
const IMPURE: { what: string; pattern: RegExp }[] = [
  {
    what: 'the database',
    pattern: /^(?:drizzle-orm|pg|@electric-sql\/.*)$|\/core\/database\.js$|\/db\/|\.repository\.js$/,
  },
  { what: 'the queue', pattern: /^pg-boss$|\/core\/queue\.js$/ },
  { what: 'the platform client', pattern: /^@ce\/platform-client$/ },
  { what: 'fastify', pattern: /^(?:fastify|@fastify\/.*|fastify-.*)$/ },
  {
    what: 'node I/O',
    pattern:
      /^(?:node:)?(?:fs|fs\/promises|net|http|https|http2|child_process|worker_threads|dgram|dns|tls|stream|readline)$/,
  },
];

/** The modules' value imports of `*-plan.ts` files that are not pure (types alone are erased, so they may). */
function impurePlans(): string[] {
  const problems: string[] = [];
  for (const { file } of moduleFiles.filter((entry) => entry.file.endsWith('-plan.ts'))) {
    const imports = readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s+'([^']+)'/gm);
    for (const [, typeOnly, names = '', specifier = ''] of imports) {
      const members = /\{([^}]*)\}/
        .exec(names)?.[1]
        ?.split(',')
        .map((member) => member.trim())
        .filter(Boolean);
      const onlyTypes =
        typeOnly !== undefined || (names.startsWith('{') && members?.every((member) => member.startsWith('type ')));
      if (onlyTypes) continue;
      const target = specifier.startsWith('.') ? path.posix.join(path.posix.dirname(file), specifier) : specifier;
      const reached = IMPURE.find(({ pattern }) => pattern.test(target));
      if (reached) problems.push(`${file}: imports ${specifier} (${reached.what}); a *-plan.ts file is pure`);
    }
  }
  return problems;
}

describe('the server modules', () => {
  it('each has an index.ts, and its folders, files and role files are named by one rule', () => {
    expect(moduleFiles.length).toBeGreaterThan(50);
    expect(namingProblems()).toEqual([]);
  });

  it('keeps its *-plan.ts files pure: no database, queue, platform client, fastify or node I/O', () => {
    expect(moduleFiles.filter(({ file }) => file.endsWith('-plan.ts')).length).toBeGreaterThan(2);
    expect(impurePlans()).toEqual([]);
  });
});

import boundaries from 'eslint-plugin-boundaries';

/**
 * The web app's layers (docs/architecture.md): shared code (components, lib) knows no feature;
 * a feature uses shared code and its own files, never another feature; the app (routes, shell) puts
 * features together. Test files may reach across to set things up.
 */
const element = (type) => ({ element: { type } });

export const webBoundaries = {
  files: ['apps/web/src/**/*.{ts,tsx}'],
  ignores: ['apps/web/src/**/*.test.{ts,tsx}'],
  plugins: { boundaries },
  settings: {
    'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
    'boundaries/include': ['apps/web/src/**/*'],
    'boundaries/elements': [
      { type: 'app', pattern: 'apps/web/src/app' },
      { type: 'feature', pattern: 'apps/web/src/features/*', capture: ['feature'] },
      { type: 'shared', pattern: ['apps/web/src/components', 'apps/web/src/lib'] },
    ],
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'disallow',
        message: '{{from.type}} code may not import {{to.type}} code (shared -> features -> app)',
        policies: [
          { from: element('shared'), allow: [{ to: element('shared') }] },
          {
            from: element('feature'),
            allow: [
              { to: element('shared') },
              { to: { element: { type: 'feature', captured: { feature: '{{from.captured.feature}}' } } } },
            ],
          },
          {
            from: element('app'),
            allow: [{ to: element('shared') }, { to: element('feature') }, { to: element('app') }],
          },
        ],
      },
    ],
  },
};

/**
 * The server's layers (docs/architecture.md): shared code (core mechanisms, adapters of external systems,
 * the report kit, the database) knows no module; a module uses shared code, its own files, and another
 * module only through that module's public entry (`index.ts` or its service); the app (`app.ts`, `main.ts`,
 * the CLI) puts modules together. Test files may reach across to set things up.
 */
const SERVER = 'apps/server/src';
export const serverBoundaries = {
  files: [`${SERVER}/**/*.ts`],
  ignores: [`${SERVER}/**/*.test.ts`],
  plugins: { boundaries },
  settings: {
    // The server imports `./file.js` for `./file.ts` (NodeNext): the TypeScript resolver maps them.
    'import/resolver': { typescript: { project: 'apps/server/tsconfig.json' } },
    'boundaries/include': [`${SERVER}/**/*`],
    'boundaries/elements': [
      { type: 'server-module', pattern: `${SERVER}/modules/*`, capture: ['module'] },
      {
        type: 'server-shared',
        pattern: [
          `${SERVER}/config`,
          `${SERVER}/core`,
          `${SERVER}/adapters`,
          `${SERVER}/report-kit`,
          `${SERVER}/db`,
          `${SERVER}/types`,
        ],
      },
      // `app.ts` and `main.ts`, the composition root, sit beside these and may import anything.
      { type: 'server-app', pattern: `${SERVER}/cli` },
    ],
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'disallow',
        message:
          '{{from.type}} code may not import {{to.type}} code here (shared -> modules through their index or service -> app)',
        policies: [
          { from: element('server-shared'), allow: [{ to: element('server-shared') }] },
          {
            from: element('server-module'),
            allow: [
              { to: element('server-shared') },
              { to: { element: { type: 'server-module', captured: { module: '{{from.captured.module}}' } } } },
              { to: { element: { type: 'server-module', fileInternalPath: ['index.ts', '*.service.ts'] } } },
            ],
          },
          {
            from: element('server-app'),
            allow: [{ to: element('server-shared') }, { to: element('server-module') }, { to: element('server-app') }],
          },
        ],
      },
    ],
  },
};

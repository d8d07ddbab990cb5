import boundaries from 'eslint-plugin-boundaries';

/**
 * The web app's layers (docs/architecture.md): shared code (components, lib, config) knows no feature;
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
      { type: 'shared', pattern: ['apps/web/src/components', 'apps/web/src/lib', 'apps/web/src/config'] },
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

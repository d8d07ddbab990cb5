/** What the diagnostic tool checks a customer's token for: the permissions, and what each toolkit tool needs. */

/** Each permission the toolkit relies on, as the platform names it, and the read that proves it. */
export const PROBES = [
  { name: 'View users', path: 'users' },
  { name: 'View roles', path: 'roles' },
  { name: 'View tests', path: 'tests' },
  { name: 'View agents', path: 'agents' },
  { name: 'View alert rules', path: 'alerts/rules' },
  { name: 'View alerts', path: 'alerts', query: { window: '1d' } },
  { name: 'View alert suppression windows', path: 'alert-suppression-windows' },
  { name: 'View dashboards', path: 'dashboards' },
  { name: 'View tags', path: 'tags' },
  { name: 'View activity log', path: 'audit-user-events', query: { window: '1d' } },
  { name: 'View usage and quotas', path: 'usage' },
  { name: 'View endpoint agents', path: 'endpoint/agents' },
] as const;
export const WRITE = 'Edit tests, agents, dashboards and users';

/** Every toolkit tool and the permissions it needs. */
export const TOOL_NEEDS: [string, string[]][] = [
  [
    'Account Health Check',
    [
      'View users',
      'View roles',
      'View tests',
      'View agents',
      'View alert rules',
      'View alerts',
      'View dashboards',
      'View usage and quotas',
    ],
  ],
  ['Configuration Reports', ['View tests', 'View agents', 'View alert rules', 'View tags', 'View endpoint agents']],
  ['Alerts Configuration Report', ['View alert rules', 'View alerts']],
  ['Maintenance Window Report', ['View alert suppression windows', 'View tests']],
  ['TAM Activity Report', ['View activity log']],
  [
    'PS Closure Documents',
    ['View users', 'View tests', 'View agents', 'View alert rules', 'View dashboards', 'View endpoint agents'],
  ],
  ['Dashboards (clone and push)', ['View dashboards', 'View tests', 'View agents', 'View tags', WRITE]],
  ['Bulk Tests', ['View tests', 'View agents', WRITE]],
  ['Bulk Operations', ['View tests', 'View agents', 'View users', 'View roles', 'View tags', WRITE]],
  ['Alerts Migration', ['View alert rules', 'View alert suppression windows', 'View tests', WRITE]],
  [
    'Backup & Restore',
    [
      'View tests',
      'View agents',
      'View alert rules',
      'View alert suppression windows',
      'View dashboards',
      'View tags',
      'View endpoint agents',
      WRITE,
    ],
  ],
];

import type { Capability } from './roles.js';
import { PATHS, type AppPath } from './paths.js';

/** One link of the side menu; its capability also guards the route. */
export interface MenuLink {
  label: string;
  path: AppPath;
  capability: Capability;
  badge?: string;
}

/** A group of the side menu. `whenDenied` says whether a role without the capability sees it greyed or not at all. */
export interface MenuGroup {
  id: 'reporting' | 'tools' | 'support';
  label: string;
  capability: Capability;
  whenDenied: 'hidden' | 'disabled';
  links: MenuLink[];
}

export const TOP_LINKS: MenuLink[] = [
  { label: 'Dashboard', path: PATHS.dashboard, capability: 'signedIn' },
  { label: 'My Reports', path: PATHS.reports, capability: 'signedIn' },
  // A TAM's book of customers (My customers, each customer's page): for those who may watch a customer.
  { label: 'My Customers', path: PATHS.customers, capability: 'healthCheck' },
];

export const MENU_GROUPS: MenuGroup[] = [
  {
    id: 'reporting',
    label: 'Reporting',
    capability: 'healthCheck',
    whenDenied: 'hidden',
    links: [
      { label: 'Health-Check', path: PATHS.accountHealth, capability: 'healthCheck' },
      { label: 'Config Reports', path: PATHS.configReport, capability: 'reporting' },
      { label: 'Alerts Report', path: PATHS.alertsReport, capability: 'reporting', badge: 'Beta' },
      { label: 'PS Closure Documents', path: PATHS.psClosureDocuments, capability: 'reporting' },
      { label: 'TAM Activity Report', path: PATHS.tamWeeklyReport, capability: 'reporting', badge: 'Beta' },
      { label: 'Maintenance Window', path: PATHS.tamMaintenanceWindow, capability: 'reporting', badge: 'Beta' },
    ],
  },
  {
    id: 'tools',
    label: 'Tools',
    capability: 'tools',
    whenDenied: 'hidden',
    links: [
      { label: 'Bulk Operations', path: PATHS.bulkOperations, capability: 'tools' },
      { label: 'Bulk Tests', path: PATHS.bulkTests, capability: 'tools', badge: 'Alpha' },
      { label: 'Dashboards', path: PATHS.dashboards, capability: 'tools', badge: 'Beta' },
      { label: 'Time Tracking', path: PATHS.timeTracking, capability: 'tools' },
      { label: 'API Tools', path: PATHS.apiTools, capability: 'tools' },
      { label: 'Alerts Migration', path: PATHS.alertsMigration, capability: 'tools' },
      { label: 'Backup & Restore', path: PATHS.backupRestore, capability: 'tools' },
    ],
  },
  {
    id: 'support',
    label: 'Support',
    capability: 'support',
    whenDenied: 'disabled',
    links: [
      { label: 'PCAP Support', path: PATHS.support, capability: 'support' },
      { label: 'Diagnostic Tool', path: PATHS.diagnosticTool, capability: 'support' },
    ],
  },
];

export const BOTTOM_LINKS: MenuLink[] = [{ label: 'Settings', path: PATHS.settings, capability: 'signedIn' }];

/** The capability that guards a path: the menu entry's, or `signedIn` for the shell's own pages. */
export function capabilityForPath(path: string): Capability {
  const all = [...TOP_LINKS, ...BOTTOM_LINKS, ...MENU_GROUPS.flatMap((group) => group.links)];
  return all.find((link) => link.path === path)?.capability ?? 'signedIn';
}

import { describe, expect, it } from 'vitest';
import { capabilityForPath, MENU_GROUPS } from './menu.js';
import { PATHS } from './paths.js';
import { API_TOKEN_MESSAGES, CAPABILITY_DESCRIPTIONS, GRANTABLE_CAPABILITIES, grantableFor } from './api-tokens.js';
import { OPERATION_ACCESS, SESSION_ONLY_OPERATIONS, type OperationId } from './operations.js';
import { REPORT_KINDS } from './reports.js';
import { can, localeAllowsAhcIe, roleFromLocale, ROLES } from './roles.js';

describe('roleFromLocale', () => {
  it('reads the role from the locale, and gives User when there is none', () => {
    expect(roleFromLocale('TAM')).toBe('TAM');
    expect(roleFromLocale('super user')).toBe('Super User');
    expect(roleFromLocale(null)).toBe('User');
    expect(roleFromLocale('')).toBe('User');
    expect(roleFromLocale('en-US')).toBe('User');
  });
});

describe('the role matrix (spec section 6)', () => {
  const allowed = (capability: Parameters<typeof can>[1]) => ROLES.filter((role) => can(role, capability));

  it('gives Health-Check to Super User, ProServ, TAM, Adoption, PMO and Engineering', () => {
    expect(allowed('healthCheck')).toEqual(['Super User', 'ProServ', 'TAM', 'Adoption', 'PMO', 'Engineering']);
  });

  it('gives the other reports and the tools to Super User, ProServ, TAM, Adoption and PMO', () => {
    expect(allowed('reporting')).toEqual(['Super User', 'ProServ', 'TAM', 'Adoption', 'PMO']);
    expect(allowed('tools')).toEqual(['Super User', 'ProServ', 'TAM', 'Adoption', 'PMO']);
  });

  it('gives Support to Super User, Support, T3 and TAM, and shows it greyed to the others', () => {
    expect(allowed('support')).toEqual(['Super User', 'TAM', 'Support', 'T3']);
    expect(MENU_GROUPS.find((group) => group.id === 'support')?.whenDenied).toBe('disabled');
  });

  it('lets every signed-in user reach the dashboard and settings, and nobody without a session', () => {
    expect(allowed('signedIn')).toEqual([...ROLES]);
    expect(can(null, 'signedIn')).toBe(false);
    expect(can(null, 'public')).toBe(true);
    expect(capabilityForPath(PATHS.dashboard)).toBe('signedIn');
    expect(capabilityForPath(PATHS.settings)).toBe('signedIn');
  });

  it('guards each page with its menu entry', () => {
    expect(capabilityForPath(PATHS.accountHealth)).toBe('healthCheck');
    expect(capabilityForPath(PATHS.alertsReport)).toBe('reporting');
    expect(capabilityForPath(PATHS.bulkTests)).toBe('tools');
    expect(capabilityForPath(PATHS.diagnosticTool)).toBe('support');
  });

  it('lets only Super Users approve or reject community dashboards, and write through the API explorer', () => {
    expect(allowed('reviewDashboards')).toEqual(['Super User']);
    expect(allowed('apiWrites')).toEqual(['Super User']);
  });

  it('offers AHC-IE only when the locale contains Super User', () => {
    expect(localeAllowsAhcIe('Super User')).toBe(true);
    expect(localeAllowsAhcIe('TAM, Super User')).toBe(true);
    expect(localeAllowsAhcIe('TAM')).toBe(false);
    expect(localeAllowsAhcIe(null)).toBe(false);
  });
});

describe('what a personal API token may carry', () => {
  it('never carries managing users: every operation it guards is for a signed-in session only', () => {
    expect(grantableFor('Super User')).not.toContain('manageUsers');
    const guarded = (Object.keys(OPERATION_ACCESS) as OperationId[]).filter(
      (operationId) => OPERATION_ACCESS[operationId] === 'manageUsers',
    );
    expect(guarded).toEqual(expect.arrayContaining(['listUsers', 'inviteUser', 'updateUser', 'listAuditLog']));
    for (const operationId of guarded) expect(SESSION_ONLY_OPERATIONS.has(operationId), operationId).toBe(true);
    expect(API_TOKEN_MESSAGES.notGrantable('manageUsers')).toBe(
      'A personal API token cannot carry User management: only a signed-in session may.',
    );
  });

  it('carries, and says it carries, the reading of each report kind', () => {
    expect(GRANTABLE_CAPABILITIES).not.toContain('proServHours');
    for (const kind of Object.values(REPORT_KINDS)) {
      expect(GRANTABLE_CAPABILITIES, kind.label).toContain(kind.capability);
      expect(CAPABILITY_DESCRIPTIONS[kind.capability], kind.label).toContain('list, read and download');
    }
    expect(API_TOKEN_MESSAGES.notCarried(['healthCheck', 'reporting', 'tools'])).toBe(
      'This token does not carry Health checks, Reports or Tools.',
    );
  });
});

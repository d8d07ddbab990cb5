import { describe, expect, it } from 'vitest';
import { missionKind } from '@ce/contract';
import { readOriginalBody } from './original-body.js';

const meta = { Mission: 'AHC v7', cec: 'tam@demo.local', OAuth: 'token-abc' };
const acme = { aid: '1234', accountGroupName: 'Acme - Data Centers', organizationName: 'Acme' };

describe('the original report bodies (spec sections 3 and 7)', () => {
  it('reads a list of groups whose final element holds Mission, cec and OAuth, bare or under no_todo_list2', () => {
    for (const body of [[acme, meta], { no_todo_list2: [acme, meta] }]) {
      expect(readOriginalBody(body)).toMatchObject({
        mission: 'AHC v7',
        cec: 'tam@demo.local',
        token: 'token-abc',
        groups: [{ aid: '1234', accountGroupName: 'Acme - Data Centers', organizationName: 'Acme' }],
      });
    }
  });

  it("reads the objects of TAM activity, AHC-IE, the wizard's push and the maintenance window", () => {
    const tam = readOriginalBody({ accountGroups: [acme], ...meta, daysRange: 14, planner: [] });
    expect(tam).toMatchObject({ groups: [{ aid: '1234' }], daysRange: 14, planner: [] });
    const ie = readOriginalBody({ ...meta, accounts: [acme], selected: { tables: ['quotas'], daysRange: 20 } });
    expect(ie).toMatchObject({ groups: [{ aid: '1234' }], tables: ['quotas'], daysRange: 20 });
    const push = readOriginalBody({ ...meta, selectedAccounts: [{ accountGroupId: 77 }], orgName: 'Acme' });
    expect(push).toMatchObject({ groups: [{ aid: '77', accountGroupName: '' }], orgName: 'Acme' });
    const window = readOriginalBody({ no_todo_list2: [{ orgName: 'Acme', ...meta }] });
    expect(window).toMatchObject({ groups: [], orgName: 'Acme', token: 'token-abc' });
  });

  it("reads the bulk API's OAuthToken and one accountGroupId given as a string", () => {
    expect(readOriginalBody({ OAuthToken: 'bulk-token', accountGroupId: '42', testData: {} })).toMatchObject({
      token: 'bulk-token',
      groups: [{ aid: '42' }],
    });
  });

  it('leaves out what is not a group and says nothing is there when nothing is', () => {
    expect(readOriginalBody([null, 'not-a-number-is-still-an-id', { name: 'no id' }, meta]).groups).toEqual([
      { aid: 'not-a-number-is-still-an-id', accountGroupName: '', organizationName: null },
    ]);
    for (const body of [undefined, null, 'text', 42, {}, []])
      expect(readOriginalBody(body)).toMatchObject({ mission: null, cec: null, token: null, groups: [] });
    expect(readOriginalBody({ ...meta, OAuth: '   ', daysRange: 'seven' })).toMatchObject({
      token: null,
      daysRange: null,
    });
  });
});

describe('the Mission that picks a report kind', () => {
  it("takes the spec's words and the kinds' ids, case and spacing aside", () => {
    expect(
      [
        'AHC v6',
        'ahc  v7',
        'AHC-IE v7',
        'EPA Config Report',
        'CA & EA Tests Config Report v7',
        'Alerts Configuration Report',
        'AS Built Closure Document',
        'Endpoints Closure Document',
        'TAMs Activity Report',
        'Maintenance Window Report',
        'Push Dashboard',
        'tests-config-v7',
        'Backup',
      ].map(missionKind),
    ).toEqual([
      'ahc-v6',
      'ahc-v7',
      'ahc-ie',
      'epa-config',
      'tests-config-v7',
      'alerts-config',
      'closure-units',
      'closure-endpoints',
      'tam-activity',
      'maintenance-window',
      'dashboard-report',
      'tests-config-v7',
      'backup',
    ]);
    expect(['Backup & Restore', 'backup and restore', 'Backup-Restore'].map(missionKind)).toEqual([
      'backup',
      'backup',
      'backup',
    ]);
    expect(missionKind('Weather Report')).toBeNull();
    for (const mission of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])
      expect(missionKind(mission), mission).toBeNull();
  });
});

import type { GroupConfig } from '../read.js';
import { count, type ConfigSheet } from './sheet.js';
import { utcMinute } from '../../../../../report-kit/dates.js';

export const summarySheet: ConfigSheet = {
  name: 'Summary',
  columns: [
    { header: 'Tab', width: 32 },
    { header: 'Rows', width: 10 },
    { header: 'Notes', width: 80 },
  ],
  write(writer, { groups, organization, organizationName, now }) {
    const sum = (pick: (group: GroupConfig) => number | null) =>
      groups.reduce((total, group) => total + (pick(group) ?? 0), 0);
    const summaryRows: [string, number, string][] = [
      ['Account Groups', groups.length, `${organizationName}, generated ${utcMinute(now)}`],
      ['Users and Roles', sum((group) => count(group.users)), ''],
      ['Cloud and Enterprise Agents', sum((group) => count(group.agents)), ''],
      ['Tests', sum((group) => count(group.tests)), ''],
      [
        'Test Agents',
        sum((group) => (group.tests.ok ? group.tests.value.reduce((n, test) => n + test.agents.length, 0) : 0)),
        'one row per test and agent',
      ],
      ['Alert Rules', sum((group) => count(group.rules)), ''],
      ['Alert Suppression Windows', sum((group) => count(group.windows)), ''],
      [
        'Dashboards and Widgets',
        sum((group) =>
          group.dashboards.ok
            ? group.dashboards.value.reduce((n, board) => n + Math.max(1, board.widgets?.length ?? 0), 0)
            : 0,
        ),
        'one row per widget',
      ],
      ['Tags', sum((group) => count(group.tags)), ''],
      [
        'Endpoint Agents and Tests',
        sum((group) => (count(group.endpointAgents) ?? 0) + (count(group.endpointTests) ?? 0)),
        '',
      ],
      ['Usage and Quotas', 0, organization.usage.ok ? '' : organization.usage.reason],
    ];
    for (const row of summaryRows) writer.row(row);
  },
};

export const accountGroupsSheet: ConfigSheet = {
  name: 'Account Groups',
  columns: [
    { header: 'Account group id', width: 16 },
    { header: 'Account group', width: 36 },
    { header: 'Tests', width: 8 },
    { header: 'Agents', width: 8 },
    { header: 'Alert rules', width: 10 },
    { header: 'Dashboards', width: 10 },
    { header: 'Users', width: 8 },
    { header: 'Endpoint agents', width: 10 },
  ],
  write(writer, { groups }) {
    for (const group of groups)
      writer.row([
        group.aid,
        group.accountGroupName,
        count(group.tests),
        count(group.agents),
        count(group.rules),
        count(group.dashboards),
        count(group.users),
        count(group.endpointAgents),
      ]);
  },
};

import { configValue } from '../tests-config.generator.js';
import { date, rowsOf, type ConfigSheet } from './sheet.js';

export const endpointSheet: ConfigSheet = {
  name: 'Endpoint Agents and Tests',
  columns: [
    { header: 'Account group', width: 30 },
    { header: 'Kind', width: 10 },
    { header: 'Id', width: 38 },
    { header: 'Name', width: 30 },
    { header: 'Platform or type', width: 16 },
    { header: 'OS or target', width: 30 },
    { header: 'Version or interval', width: 12 },
    { header: 'Status', width: 10 },
    { header: 'License', width: 12 },
    { header: 'Last seen', width: 18 },
  ],
  write(writer, { groups }) {
    rowsOf(
      writer,
      groups,
      (group) => group.endpointAgents,
      (group, agent) => [
        group.accountGroupName,
        'agent',
        agent.id,
        agent.name ?? agent.computerName ?? '',
        agent.platform ?? '',
        agent.osVersion ?? '',
        agent.version ?? '',
        agent.status ?? '',
        agent.licenseType ?? '',
        date(agent.lastSeen),
      ],
    );
    rowsOf(
      writer,
      groups,
      (group) => group.endpointTests,
      (group, test) => {
        return [
          group.accountGroupName,
          'test',
          test.testId,
          test.testName,
          test.type,
          String(test.url ?? test.server ?? ''),
          test.interval ?? null,
          test.isEnabled === false ? 'disabled' : 'enabled',
          null,
          null,
        ];
      },
    );
  },
};

export const usageSheet: ConfigSheet = {
  name: 'Usage and Quotas',
  columns: [
    { header: 'Measure', width: 36 },
    { header: 'Account group', width: 30 },
    { header: 'Value', width: 14 },
  ],
  write(writer, { groups, organization }) {
    if (organization.usage.ok) {
      const used = organization.usage.value;
      const quota = used.quota ?? {};
      const measures: [string, unknown][] = [
        ['Billing period start', date(typeof quota.monthStart === 'string' ? quota.monthStart : undefined)],
        ['Billing period end', date(typeof quota.monthEnd === 'string' ? quota.monthEnd : undefined)],
        ['Cloud units included', quota.cloudUnitsIncluded],
        ['Cloud units used', used.cloudUnitsUsed],
        ['Cloud units projected', used.cloudUnitsProjected],
        ['Enterprise agents included', quota.enterpriseAgentsIncluded],
        ['Enterprise agents used', used.enterpriseAgentsUsed],
        ['Endpoint agents included', quota.endpointAgentsIncluded],
        ['Endpoint agents used', used.endpointAgentsUsed],
      ];
      for (const [measure, value] of measures) writer.row([measure, null, configValue(value)]);
    } else writer.row(['Usage', null, organization.usage.reason]);
    if (organization.quotas.ok) {
      const names = new Map(groups.map((group) => [group.aid, group.accountGroupName]));
      for (const entry of organization.quotas.value.quotas) {
        writer.row(['Organization quota (cloud units)', null, configValue(entry.organizationQuota?.value)]);
        for (const quota of entry.accountGroupQuotas ?? [])
          if (names.has(String(quota.aid)))
            writer.row([
              'Account group quota (cloud units)',
              names.get(String(quota.aid)) ?? '',
              configValue(quota.value),
            ]);
      }
    } else writer.row(['Quotas', null, organization.quotas.reason]);
  },
};

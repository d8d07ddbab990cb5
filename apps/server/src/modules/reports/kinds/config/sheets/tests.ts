import { date, rowsOf, target, type ConfigSheet } from './sheet.js';

export const testsSheet: ConfigSheet = {
  name: 'Tests',
  columns: [
    { header: 'Account group', width: 30 },
    { header: 'Test id', width: 10 },
    { header: 'Test', width: 36 },
    { header: 'Type', width: 16 },
    { header: 'Target', width: 36 },
    { header: 'Interval (s)', width: 10 },
    { header: 'Enabled', width: 8 },
    { header: 'Alerts enabled', width: 8 },
    { header: 'Agents', width: 8 },
    { header: 'Alert rules', width: 30 },
    { header: 'Tags', width: 30 },
    { header: 'Created', width: 18 },
    { header: 'Modified', width: 18 },
    { header: 'Description', width: 40 },
  ],
  write(writer, { groups }) {
    rowsOf(
      writer,
      groups,
      (group) => group.tests,
      (group, { test, agents: on, rules, tags }) => [
        group.accountGroupName,
        test.testId,
        test.testName,
        test.type,
        target(test),
        test.interval ?? null,
        test.enabled !== false,
        test.alertsEnabled !== false,
        on.length,
        rules.map((rule) => rule.ruleName).join(', '),
        tags.join(', '),
        date(test.createdDate),
        date(test.modifiedDate),
        test.description ?? '',
      ],
    );
  },
};

export const testAgentsSheet: ConfigSheet = {
  name: 'Test Agents',
  columns: [
    { header: 'Account group', width: 30 },
    { header: 'Test id', width: 10 },
    { header: 'Test', width: 36 },
    { header: 'Agent id', width: 10 },
    { header: 'Agent', width: 28 },
    { header: 'Agent type', width: 12 },
    { header: 'Location', width: 24 },
  ],
  write(writer, { groups }) {
    rowsOf(
      writer,
      groups,
      (group) => group.tests,
      (group, { test, agents: on }) =>
        on.map((agent) => [
          group.accountGroupName,
          test.testId,
          test.testName,
          agent.agentId,
          agent.agentName,
          agent.agentType,
          agent.location,
        ]),
    );
  },
};

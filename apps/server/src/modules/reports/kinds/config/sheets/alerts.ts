import { listOf, recordOf } from '../../../../../core/json.js';
import { configValue } from '../tests-config.generator.js';
import { date, rowsOf, type ConfigSheet } from './sheet.js';

export const alertRulesSheet: ConfigSheet = {
  name: 'Alert Rules',
  columns: [
    { header: 'Account group', width: 30 },
    { header: 'Rule id', width: 10 },
    { header: 'Rule', width: 32 },
    { header: 'Alert type', width: 18 },
    { header: 'Expression', width: 44 },
    { header: 'Severity', width: 10 },
    { header: 'Default', width: 8 },
    { header: 'Rounds violating (required of)', width: 14 },
    { header: 'Tests', width: 44 },
    { header: 'Notifications', width: 40 },
  ],
  write(writer, { groups }) {
    rowsOf(
      writer,
      groups,
      (group) => group.rules,
      (group, rule) => {
        const names = new Map(
          group.tests.ok ? group.tests.value.map((test) => [test.test.testId, test.test.testName]) : [],
        );
        const notifications = rule.notifications ?? {};
        return [
          group.accountGroupName,
          rule.ruleId,
          rule.ruleName,
          rule.alertType ?? '',
          rule.expression ?? '',
          rule.severity ?? '',
          rule.isDefault === true,
          `${rule.roundsViolatingRequired ?? '?'} of ${rule.roundsViolatingOutOf ?? '?'}`,
          rule.testIds.map((id) => names.get(id) ?? id).join(', '),
          [
            ...listOf(recordOf(notifications.email).recipients).map((recipient) => `email: ${String(recipient)}`),
            ...['thirdParty', 'webhook', 'customWebhook'].flatMap((key) => listOf(notifications[key]).map(() => key)),
          ].join(', '),
        ];
      },
    );
  },
};

export const suppressionWindowsSheet: ConfigSheet = {
  name: 'Alert Suppression Windows',
  columns: [
    { header: 'Account group', width: 30 },
    { header: 'Window id', width: 10 },
    { header: 'Window', width: 30 },
    { header: 'Enabled', width: 8 },
    { header: 'Status', width: 10 },
    { header: 'Starts', width: 18 },
    { header: 'Duration (s)', width: 10 },
    { header: 'Repeat', width: 24 },
    { header: 'Tests', width: 44 },
  ],
  write(writer, { groups }) {
    rowsOf(
      writer,
      groups,
      (group) => group.windows,
      (group, window) => [
        group.accountGroupName,
        window.alertSuppressionWindowId,
        window.name,
        window.isEnabled !== false,
        window.status ?? '',
        date(window.startDate),
        window.duration ?? null,
        configValue(window.repeat ? Object.values(window.repeat).join(' ') : 'once'),
        (window.tests ?? []).map((test) => String(test.testName ?? test.testId)).join(', '),
      ],
    );
  },
};

import type { AlertRule, PlatformTest } from '@ce/platform-client';
import { listOf, recordOf } from '../../../../core/json.js';

export interface AlertRuleRow {
  ruleName: string;
  alertType: string;
  expression: string;
  severity: string;
  direction: string;
  rounds: string;
  isDefault: boolean;
  tests: string[];
  notifications: string[];
}

export interface GroupFindings {
  accountGroupName: string;
  rows: AlertRuleRow[];
  unassigned: string[];
  withoutNotification: string[];
  sameExpression: string[][];
}

function notificationsOf(rule: AlertRule): string[] {
  const notifications = rule.notifications ?? {};
  const channels = ['thirdParty', 'webhook', 'customWebhook'].flatMap((key) =>
    listOf(notifications[key]).map((item) => {
      const integration = recordOf(item);
      return `${key}: ${String(integration.integrationName ?? integration.integrationId ?? 'integration')}`;
    }),
  );
  const recipients = listOf(recordOf(notifications.email).recipients);
  return [...recipients.map((recipient) => `email: ${String(recipient)}`), ...channels];
}

/** Turns one account group's rules into rows and findings. */
export function analyseGroup(accountGroupName: string, rules: AlertRule[], tests: PlatformTest[]): GroupFindings {
  const testNames = new Map(tests.map((test) => [test.testId, test.testName]));
  const rows = rules.map((rule) => ({
    ruleName: rule.ruleName,
    alertType: rule.alertType ?? '',
    expression: rule.expression ?? '',
    severity: rule.severity ?? '',
    direction: rule.direction ?? '',
    rounds: `${rule.roundsViolatingRequired ?? '?'} of ${rule.roundsViolatingOutOf ?? '?'}`,
    isDefault: rule.isDefault === true,
    tests: rule.testIds.map((testId) => testNames.get(testId) ?? `test ${testId}`),
    notifications: notificationsOf(rule),
  }));
  const byExpression = new Map<string, string[]>();
  for (const row of rows) {
    const key = `${row.alertType}|${row.expression.replace(/\s+/g, '')}`;
    byExpression.set(key, [...(byExpression.get(key) ?? []), row.ruleName]);
  }
  return {
    accountGroupName,
    rows,
    unassigned: rows.filter((row) => row.tests.length === 0).map((row) => row.ruleName),
    withoutNotification: rows.filter((row) => row.notifications.length === 0).map((row) => row.ruleName),
    sameExpression: [...byExpression.values()].filter((names) => names.length > 1),
  };
}

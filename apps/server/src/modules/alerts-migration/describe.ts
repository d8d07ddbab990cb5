import type { AlertRule } from '@ce/platform-client';
import { listOf, recordOf, recordsOf } from '../../core/json.js';

/** Where the bracket that opens `text` closes (brackets inside quoted strings do not count); -1: it does not. */
function closingBracket(text: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quote) {
      if (char === '\\') index++;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return index;
  }
  return -1;
}

/** The condition without the brackets around all of it: `((a) || (b))` -> `(a) || (b)`; `(a) || (b)` stays. */
function withoutOuterBrackets(expression: string): string {
  let text = expression.trim();
  while (text.startsWith('(') && closingBracket(text) === text.length - 1) text = text.slice(1, -1).trim();
  return text;
}

/** A rule's condition in words: "2 of 3 rounds: responseTime >= 500 ms". */
export function conditionInWords(rule: AlertRule): string {
  const expression = withoutOuterBrackets(rule.expression ?? '') || 'no condition';
  const outOf = rule.roundsViolatingOutOf ?? 1;
  const required = rule.roundsViolatingRequired ?? 1;
  return `${required} of ${outOf} round${outOf === 1 ? '' : 's'}: ${expression}`;
}

/** Who a rule tells, in words: email recipients, webhooks by name, third-party integrations by type. */
export function notificationsInWords(rule: Pick<AlertRule, 'notifications'>): string[] {
  const notifications = rule.notifications ?? {};
  const recipients = recordOf(notifications.email).recipients;
  return [
    ...listOf(recipients).map((recipient) => `Email: ${String(recipient)}`),
    ...recordsOf(notifications.webhook).map((hook) => `Webhook: ${String(hook.integrationName ?? hook.integrationId)}`),
    ...recordsOf(notifications.customWebhook).map(
      (hook) => `Custom webhook: ${String(hook.integrationName ?? hook.integrationId)}`,
    ),
    ...recordsOf(notifications.thirdParty).map(
      (integration) => `Integration: ${String(integration.integrationType ?? integration.integrationId)}`,
    ),
  ];
}

/** A value of a field difference, in words for the plan's table. */
export function valueInWords(value: unknown): string {
  if (value === undefined || value === null) return '(none)';
  if (typeof value === 'string') return value || '(empty)';
  if (Array.isArray(value)) return value.length ? value.map(valueInWords).join(', ') : '(none)';
  return JSON.stringify(value);
}

import type { AlertRule, RuleIntegration } from '../model.js';
import type { PlatformState } from '../state.js';

const SEVERITIES = ['info', 'minor', 'major', 'critical'] as const;
const MODES = ['exact', 'any', 'auto'] as const;
const DIRECTIONS = ['to-target', 'from-target', 'bidirectional'] as const;
const GROUP_TYPES = ['cloud-enterprise', 'bgp', 'browser-session', 'endpoint'] as const;
const INTEGRATION_KINDS = ['thirdParty', 'webhook', 'customWebhook'] as const;

type FieldError = { code: string; field: string; message: string };
const oneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);

/**
 * A rule from a `RuleDetailUpdate` body (POST and PUT): `ruleName`, `expression`, `alertType` and
 * `roundsViolatingOutOf` required; tests by `testIds`, each a test of the account group; notifications by
 * email and through integrations. Answers the field errors instead when the body is not one.
 */
export function ruleFromBody(
  body: Record<string, unknown>,
  base: { ruleId: string; aid: string; isDefault: boolean },
  state: PlatformState,
): AlertRule | FieldError[] {
  const errors: FieldError[] = [];
  const missing = (field: string) => errors.push({ code: 'REQUIRED', field, message: `${field} is required` });
  const invalid = (field: string, message: string) => errors.push({ code: 'INVALID', field, message });
  for (const field of ['ruleName', 'expression', 'alertType'])
    if (typeof body[field] !== 'string' || !(body[field] as string).trim()) missing(field);
  const outOf = Number(body.roundsViolatingOutOf);
  if (body.roundsViolatingOutOf === undefined) missing('roundsViolatingOutOf');
  else if (!Number.isInteger(outOf) || outOf < 1 || outOf > 10)
    invalid('roundsViolatingOutOf', 'roundsViolatingOutOf must be an integer from 1 to 10');
  const required = body.roundsViolatingRequired === undefined ? 1 : Number(body.roundsViolatingRequired);
  if (!Number.isInteger(required) || required < 1 || required > outOf)
    invalid('roundsViolatingRequired', 'roundsViolatingRequired must be from 1 to roundsViolatingOutOf');
  if (body.severity !== undefined && !oneOf(SEVERITIES, body.severity))
    invalid('severity', `severity must be one of ${SEVERITIES.join(', ')}`);
  if (body.roundsViolatingMode !== undefined && !oneOf(MODES, body.roundsViolatingMode))
    invalid('roundsViolatingMode', `roundsViolatingMode must be one of ${MODES.join(', ')}`);
  if (body.direction !== undefined && !oneOf(DIRECTIONS, body.direction))
    invalid('direction', `direction must be one of ${DIRECTIONS.join(', ')}`);
  const testIds = Array.isArray(body.testIds) ? body.testIds.map(String) : [];
  const groupTests = new Set(state.world.tests.filter((test) => test.aid === base.aid).map((test) => test.testId));
  for (const testId of testIds)
    if (!groupTests.has(testId)) invalid('testIds', `Test ${testId} does not exist in this account group`);
  const notifications = (body.notifications ?? {}) as Record<string, unknown>;
  const email = notifications.email as { recipients?: unknown } | undefined;
  const recipients = Array.isArray(email?.recipients) ? email.recipients.map(String) : [];
  for (const recipient of recipients)
    if (!/^[^@\s]+@[^@\s]+$/.test(recipient)) invalid('notifications.email.recipients', `${recipient} is no email`);
  const integrations: RuleIntegration[] = INTEGRATION_KINDS.flatMap((kind) =>
    (Array.isArray(notifications[kind]) ? (notifications[kind] as Record<string, unknown>[]) : []).map((item) => ({
      kind,
      integrationId: String(item.integrationId ?? ''),
      integrationType: String(item.integrationType ?? ''),
      ...(typeof item.integrationName === 'string' ? { integrationName: item.integrationName } : {}),
      ...(typeof item.target === 'string' ? { target: item.target } : {}),
    })),
  );
  for (const integration of integrations)
    if (!integration.integrationId) invalid(`notifications.${integration.kind}`, 'integrationId is required');
  if (errors.length) return errors;
  return {
    ruleId: base.ruleId,
    aid: base.aid,
    ruleName: String(body.ruleName).trim(),
    expression: String(body.expression),
    ...(oneOf(DIRECTIONS, body.direction) ? { direction: body.direction } : {}),
    notifyOnClear: body.notifyOnClear === true,
    isDefault: typeof body.isDefault === 'boolean' ? body.isDefault : base.isDefault,
    alertType: String(body.alertType),
    alertGroupType: oneOf(GROUP_TYPES, body.alertGroupType) ? body.alertGroupType : 'cloud-enterprise',
    minimumSources: Number.isInteger(Number(body.minimumSources)) ? Number(body.minimumSources ?? 1) : 1,
    roundsViolatingMode: oneOf(MODES, body.roundsViolatingMode) ? body.roundsViolatingMode : 'exact',
    roundsViolatingOutOf: outOf,
    roundsViolatingRequired: required,
    severity: oneOf(SEVERITIES, body.severity) ? body.severity : 'major',
    description: typeof body.description === 'string' ? body.description : '',
    testIds,
    notificationEmails: recipients,
    ...(integrations.length ? { integrations } : {}),
  };
}

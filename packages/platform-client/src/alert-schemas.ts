import { z } from 'zod';
import { linkSchema } from './schemas.js';

// The alerting side of the platform's shapes: rules (as read and as written), alerts, suppression windows and the
// webhooks rules notify. Loose objects, as in schemas.ts.

/**
 * An alert rule as read. The detail lists its tests as `tests[]` and, per the document, `testIds` (read-only):
 * whichever the answer carried, the rule always has `testIds`, so no reader picks between the two.
 */
export const alertRuleSchema = z
  .looseObject({
    ruleId: z.string(),
    ruleName: z.string(),
    expression: z.string().optional(),
    description: z.string().optional(),
    direction: z.string().optional(),
    notifyOnClear: z.boolean().optional(),
    isDefault: z.boolean().optional(),
    alertType: z.string().optional(),
    alertGroupType: z.string().optional(),
    minimumSources: z.number().optional(),
    minimumSourcesPct: z.number().optional(),
    roundsViolatingMode: z.string().optional(),
    roundsViolatingOutOf: z.number().optional(),
    roundsViolatingRequired: z.number().optional(),
    severity: z.string().optional(),
    testIds: z.array(z.string()).optional(),
    tests: z.array(z.looseObject({ testId: z.string(), testName: z.string().optional() })).optional(),
    notifications: z.looseObject({}).optional(),
  })
  .transform((rule) => ({ ...rule, testIds: rule.testIds ?? rule.tests?.map((test) => test.testId) ?? [] }));
export type AlertRule = z.infer<typeof alertRuleSchema>;

/** The body of an alert rule's POST and PUT (`RuleDetailUpdate`): tests by id, notifications as read. */
export interface AlertRuleBody {
  ruleName: string;
  expression: string;
  alertType: string;
  roundsViolatingOutOf: number;
  roundsViolatingRequired?: number;
  roundsViolatingMode?: string;
  direction?: string;
  notifyOnClear?: boolean;
  isDefault?: boolean;
  alertGroupType?: string;
  minimumSources?: number;
  minimumSourcesPct?: number;
  severity?: string;
  description?: string;
  testIds?: string[];
  notifications?: Record<string, unknown>;
}
/** A body to send as an alert rule's: the fields `RuleDetailUpdate` requires, the others along as given. */
export const alertRuleBodySchema = z.looseObject({
  ruleName: z.string(),
  expression: z.string(),
  alertType: z.string(),
  roundsViolatingOutOf: z.number(),
}) satisfies z.ZodType<AlertRuleBody>;

export const alertSchema = z.looseObject({
  id: z.string(),
  alertType: z.string().optional(),
  alertRuleId: z.string().optional(),
  alertState: z.string().optional(),
  alertSeverity: z.string().optional(),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
  violationCount: z.number().optional(),
  duration: z.number().optional(),
  suppressed: z.boolean().optional(),
  /** How many times the alert changed (its state, its details): a reader that keeps alerts compares it. */
  meta: z.looseObject({ version: z.number().optional() }).optional(),
  /** `test.href` ends with the id of the test the alert is about. */
  _links: z.looseObject({ test: linkSchema.optional(), rule: linkSchema.optional() }).optional(),
});
export type PlatformAlert = z.infer<typeof alertSchema>;

export const suppressionWindowSchema = z.looseObject({
  alertSuppressionWindowId: z.string(),
  name: z.string(),
  isEnabled: z.boolean().optional(),
  status: z.string().optional(),
  startDate: z.string().optional(),
  duration: z.number().optional(),
  repeat: z.looseObject({}).optional(),
  endRepeat: z.looseObject({}).optional(),
  tests: z.array(z.looseObject({ testId: z.string() })).optional(),
});
export type SuppressionWindow = z.infer<typeof suppressionWindowSchema>;

/** A webhook operation (`Integrations_API_WebhookOperation`): rules' webhook notifications name it. */
export const webhookSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  enabled: z.boolean().optional(),
  category: z.string().optional(),
  status: z.string().optional(),
});
export type Webhook = z.infer<typeof webhookSchema>;

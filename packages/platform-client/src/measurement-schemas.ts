import { z } from 'zod';
import { alertSchema } from './alert-schemas.js';

// What the platform measured (results, alerts with their details, events, agents' health, units): its answers' shapes.

/** An alert with what met its rule's conditions (`GET /alerts/{alertId}`). */
export const alertDetailSchema = alertSchema.extend({
  details: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        state: z.string().optional(),
        start: z.looseObject({ metrics: z.string().optional() }).optional(),
        end: z.looseObject({ metrics: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});
export type PlatformAlertDetail = z.infer<typeof alertDetailSchema>;

/**
 * One agent's round of a test (`/test-results/{testId}/{type}`): the fields every type has, and the figures of the
 * types the measured checks read (network: loss, latency, jitter; HTTP: response code, error type; ...).
 */
export const testResultSchema = z.looseObject({
  agent: z.looseObject({ agentId: z.string(), agentName: z.string().optional() }),
  date: z.string(),
  roundId: z.number(),
  errorDetails: z.string().optional(),
  loss: z.number().optional(),
  avgLatency: z.number().optional(),
  jitter: z.number().optional(),
  responseCode: z.number().optional(),
  errorType: z.string().optional(),
  responseTime: z.number().optional(),
  numErrors: z.number().optional(),
  failedQueries: z.number().optional(),
});
export type PlatformTestResult = z.infer<typeof testResultSchema>;
export const testResultsPageSchema = z.looseObject({
  results: z.array(testResultSchema),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
});

const affectedCount = z.looseObject({ total: z.number().optional(), inAccountGroup: z.number().optional() });
/** An event the platform's event detection found (`/events`, `/events/{id}`). */
export const eventSchema = z.looseObject({
  id: z.string(),
  type: z.string().optional(),
  typeName: z.string().optional(),
  state: z.string().optional(),
  severity: z.string().optional(),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
  affectedTests: affectedCount.optional(),
  affectedAgents: affectedCount.optional(),
  affectedTargets: affectedCount.optional(),
});
export type PlatformEvent = z.infer<typeof eventSchema>;
export const eventDetailSchema = eventSchema.extend({
  summary: z.string().optional(),
  cause: z.array(z.string()).optional(),
  affectedTests: affectedCount
    .extend({ tests: z.array(z.looseObject({ id: z.string().optional(), name: z.string().optional() })).optional() })
    .optional(),
});
export type PlatformEventDetail = z.infer<typeof eventDetailSchema>;

/** An agent notification rule (`/agents/notification-rules`): who hears of agents going offline. */
export const agentNotificationRuleSchema = z.looseObject({
  ruleId: z.string(),
  ruleName: z.string().optional(),
  expression: z.string().optional(),
  notifyOnClear: z.boolean().optional(),
  isDefault: z.boolean().optional(),
});
export type AgentNotificationRule = z.infer<typeof agentNotificationRuleSchema>;
/** One rule with the agents it is assigned to (`/agents/notification-rules/{notificationRuleId}`). */
export const agentNotificationRuleDetailSchema = agentNotificationRuleSchema.extend({
  agents: z
    .array(z.looseObject({ agentId: z.string(), agentName: z.string().optional(), agentType: z.string().optional() }))
    .optional(),
});
export type AgentNotificationRuleDetail = z.infer<typeof agentNotificationRuleDetailSchema>;

/** A local problem of an enterprise agent (`/agents/local-problems`). */
export const localProblemSchema = z.looseObject({
  agent: z.looseObject({ agentId: z.string().optional(), agentName: z.string().optional() }),
  startDate: z.string(),
  endDate: z.string().optional(),
  duration: z.number(),
  active: z.boolean(),
});
export type AgentLocalProblem = z.infer<typeof localProblemSchema>;

/** Units one test used and is projected to use (`/usage/units/tests`). */
export const testUnitsSchema = z.looseObject({
  aid: z.string().optional(),
  accountGroupName: z.string().optional(),
  testId: z.string(),
  testName: z.string().optional(),
  testType: z.string().optional(),
  cloudUnitsUsed: z.number().optional(),
  cloudUnitsProjected: z.number().optional(),
  enterpriseUnitsUsed: z.number().optional(),
  enterpriseUnitsProjected: z.number().optional(),
  isInstantTest: z.boolean().optional(),
});
export type TestUnits = z.infer<typeof testUnitsSchema>;

/** Units one enterprise agent used for one account group's tests (`/usage/units/enterprise-agents`). */
export const enterpriseAgentUnitsSchema = z.looseObject({
  aid: z.string().optional(),
  accountGroupName: z.string().optional(),
  agentId: z.string(),
  agentName: z.string().optional(),
  enterpriseUnitsUsed: z.number().optional(),
  enterpriseUnitsProjected: z.number().optional(),
});
export type EnterpriseAgentUnits = z.infer<typeof enterpriseAgentUnitsSchema>;

/** A version of a test's settings (`/tests/{testId}/history`); read one with `versionId`. */
export const testVersionSchema = z.looseObject({
  versionId: z.string(),
  testId: z.string().optional(),
  versionTimestamp: z.string(),
  createdBy: z.string().optional(),
});
export type TestVersion = z.infer<typeof testVersionSchema>;

import { agentSchema } from '../schemas.js';
import {
  agentNotificationRuleDetailSchema,
  agentNotificationRuleSchema,
  localProblemSchema,
} from '../measurement-schemas.js';
import { rangeQuery, type Caller, type TimeRange } from './caller.js';

export const agents = (caller: Caller) => ({
  list: async (
    options: {
      aid?: string;
      agentTypes?: ('cloud' | 'enterprise' | 'enterprise-cluster')[];
      expand?: string[];
      signal?: AbortSignal;
    } = {},
  ) =>
    caller.list('agents', agentSchema, 'agents', 'agents', {
      aid: options.aid,
      query: { agentTypes: options.agentTypes, expand: options.expand },
      signal: options.signal,
    }),
  get: (agentId: string, aid?: string, signal?: AbortSignal) =>
    caller.request(agentSchema, `agents/${encodeURIComponent(agentId)}`, 'agent', { aid, signal }),
  /** The agent notification rules (agent offline, ...): who hears of agents that stop. */
  notificationRules: async (aid?: string, signal?: AbortSignal) =>
    caller.list(
      'agentAlertRules',
      agentNotificationRuleSchema,
      'agents/notification-rules',
      'agent notification rules',
      {
        aid,
        signal,
      },
    ),
  /** One agent notification rule with the agents it is assigned to (the list does not name them). */
  notificationRule: (ruleId: string, aid?: string, signal?: AbortSignal) =>
    caller.request(
      agentNotificationRuleDetailSchema,
      `agents/notification-rules/${encodeURIComponent(ruleId)}`,
      'agent notification rule',
      { aid, signal },
    ),
  /** The enterprise agents' local problems in a range (the last day without one). */
  localProblems: async (options: { aid?: string; range?: TimeRange; signal?: AbortSignal } = {}) =>
    caller.list('localProblems', localProblemSchema, 'agents/local-problems', 'agent local problems', {
      aid: options.aid,
      query: rangeQuery(options.range),
      signal: options.signal,
    }),
  delete: (agentId: string, aid?: string, signal?: AbortSignal) =>
    caller.http.call<void>(caller.auth, `agents/${encodeURIComponent(agentId)}`, { method: 'DELETE', aid, signal }),
});

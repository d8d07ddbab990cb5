import { alertRuleSchema, alertSchema, suppressionWindowSchema } from '../schemas.js';
import { rangeQuery, type Caller, type TimeRange } from './caller.js';

export const alertRules = (caller: Caller) => ({
  list: async (aid?: string, signal?: AbortSignal) =>
    caller.list('alertRules', alertRuleSchema, 'alerts/rules', 'alert rules', { aid, signal }),
  get: (ruleId: string, aid?: string, signal?: AbortSignal) =>
    caller.request(alertRuleSchema, `alerts/rules/${encodeURIComponent(ruleId)}`, 'alert rule', { aid, signal }),
});

export const alerts = (caller: Caller) => ({
  /** Active alerts by default; `state: 'clear'` and a range for history. */
  list: (
    options: {
      aid?: string;
      range?: TimeRange;
      state?: 'trigger' | 'clear';
      max?: number;
      signal?: AbortSignal;
    } = {},
  ) =>
    caller.paginate('alerts', 'alerts', alertSchema, {
      aid: options.aid,
      query: { ...rangeQuery(options.range), state: options.state, max: options.max },
      signal: options.signal,
    }),
});

export const alertSuppressionWindows = (caller: Caller) => ({
  list: async (aid?: string, signal?: AbortSignal) =>
    caller.list(
      'alertSuppressionWindows',
      suppressionWindowSchema,
      'alert-suppression-windows',
      'alert suppression windows',
      {
        aid,
        signal,
      },
    ),
  get: (windowId: string, aid?: string, signal?: AbortSignal) =>
    caller.request(
      suppressionWindowSchema,
      `alert-suppression-windows/${encodeURIComponent(windowId)}`,
      'alert suppression window',
      {
        aid,
        query: { expand: ['test'] },
        signal,
      },
    ),
  create: (body: Record<string, unknown>, aid?: string, signal?: AbortSignal) =>
    caller.request(suppressionWindowSchema, 'alert-suppression-windows', 'created alert suppression window', {
      method: 'POST',
      body,
      aid,
      signal,
      idempotent: false,
    }),
});

import {
  alertRuleSchema,
  alertSchema,
  suppressionWindowSchema,
  webhookSchema,
  type AlertRuleBody,
} from '../alert-schemas.js';
import { alertDetailSchema } from '../measurement-schemas.js';
import { rangeQuery, type Caller, type TimeRange } from './caller.js';

export const alertRules = (caller: Caller) => ({
  list: async (aid?: string, signal?: AbortSignal) =>
    caller.list('alertRules', alertRuleSchema, 'alerts/rules', 'alert rules', { aid, signal }),
  get: (ruleId: string, aid?: string, signal?: AbortSignal) =>
    caller.request(alertRuleSchema, `alerts/rules/${encodeURIComponent(ruleId)}`, 'alert rule', { aid, signal }),
  /** A new rule in the account group (`Edit alert rules`); never retried: a repeat would make a second one. */
  create: (body: AlertRuleBody, aid?: string, signal?: AbortSignal) =>
    caller.request(alertRuleSchema, 'alerts/rules', 'created alert rule', {
      method: 'POST',
      body,
      aid,
      signal,
      idempotent: false,
    }),
  /**
   * Replaces a rule's definition (PUT: the whole body, as for a creation). An empty body changes nothing:
   * it asks whether the user may write (403 when not).
   */
  update: (ruleId: string, body: AlertRuleBody | Record<string, never>, aid?: string, signal?: AbortSignal) =>
    caller.request(alertRuleSchema, `alerts/rules/${encodeURIComponent(ruleId)}`, 'updated alert rule', {
      method: 'PUT',
      body,
      aid,
      signal,
    }),
  delete: (ruleId: string, aid?: string, signal?: AbortSignal) =>
    caller.http.call<void>(caller.auth, `alerts/rules/${encodeURIComponent(ruleId)}`, {
      method: 'DELETE',
      aid,
      signal,
    }),
});

export const alerts = (caller: Caller) => ({
  /**
   * Without a range, the alerts triggered in the last 90 days (`state: 'trigger'`, the default); `state: 'clear'`
   * and a range for those that cleared in it. Page by page, following `_links.next`.
   */
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
  /** One alert with what met its rule's conditions (`details`) and `meta.version`. */
  get: (alertId: string, aid?: string, signal?: AbortSignal) =>
    caller.request(alertDetailSchema, `alerts/${encodeURIComponent(alertId)}`, 'alert', { aid, signal }),
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
  /** Replaces a window's definition (PUT: the whole request, as for a creation). */
  update: (windowId: string, body: Record<string, unknown>, aid?: string, signal?: AbortSignal) =>
    caller.request(
      suppressionWindowSchema,
      `alert-suppression-windows/${encodeURIComponent(windowId)}`,
      'updated alert suppression window',
      { method: 'PUT', body, aid, signal },
    ),
  delete: (windowId: string, aid?: string, signal?: AbortSignal) =>
    caller.http.call<void>(caller.auth, `alert-suppression-windows/${encodeURIComponent(windowId)}`, {
      method: 'DELETE',
      aid,
      signal,
    }),
});

/** Webhook operations (Integrations API): what rules' webhook notifications name, per account group. */
export const webhooks = (caller: Caller) => ({
  list: (aid?: string, signal?: AbortSignal) =>
    caller.list('items', webhookSchema, 'operations/webhooks', 'webhook operations', { aid, signal }),
});

import type { FastifyInstance } from 'fastify';
import type { AlertRule } from '../model.js';
import { alertBody, alertsOfGroup } from './alert-details.js';
import { ruleFromBody } from './alert-rules.js';
import { problem, overLimit, queryOf, list, timeRange, paginate } from './http.js';
import type { RouteContext } from './context.js';

/** Alert rules, alerts, alert suppression windows, and the webhook operations rules notify through. */
export function alertRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  app.get('/alerts/rules', async (request, reply) => {
    const { group, serializer } = caller(request);
    const rules = state.world.alertRules.filter((rule) => rule.aid === group.aid);
    return hal(reply).send({
      alertRules: rules.map((rule) => serializer.alertRule(rule)),
      _links: { self: serializer.link('/alerts/rules') },
    });
  });

  app.get<{ Params: { ruleId: string } }>('/alerts/rules/:ruleId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const rule = state.lookup.alertRule(request.params.ruleId);
    if (rule?.aid !== group.aid)
      return problem(reply, 404, 'Not Found', `Alert rule ${request.params.ruleId} not found`);
    return hal(reply).send(serializer.alertRule(rule, true));
  });

  const INVALID = 'Request validation failed. There are invalid or missing fields';
  /** The tests of the group say which rules they carry: kept in step with the rule's `testIds`. */
  const linkTests = (rule: AlertRule, removed = false) => {
    for (const test of state.world.tests.filter((candidate) => candidate.aid === rule.aid)) {
      const others = test.alertRuleIds.filter((ruleId) => ruleId !== rule.ruleId);
      test.alertRuleIds = !removed && rule.testIds.includes(test.testId) ? [...others, rule.ruleId] : others;
    }
  };

  app.post('/alerts/rules', async (request, reply) => {
    const { group, serializer } = caller(request);
    const full = overLimit(
      reply,
      state.world.alertRules.filter((rule) => rule.aid === group.aid).length,
      'alert rules',
      'account group',
    );
    if (full) return full;
    const rule = ruleFromBody(
      (request.body ?? {}) as Record<string, unknown>,
      { ruleId: state.newId(), aid: group.aid, isDefault: false },
      state,
    );
    if (Array.isArray(rule)) return problem(reply, 400, INVALID, undefined, rule);
    state.world.alertRules.push(rule);
    linkTests(rule);
    reply.header('Location', serializer.link(`/alerts/rules/${rule.ruleId}`).href);
    return hal(reply).status(201).send(serializer.alertRule(rule, true));
  });

  app.put<{ Params: { ruleId: string } }>('/alerts/rules/:ruleId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const index = state.world.alertRules.findIndex(
      (candidate) => candidate.ruleId === request.params.ruleId && candidate.aid === group.aid,
    );
    const existing = state.world.alertRules[index];
    if (!existing) return problem(reply, 404, 'Not Found', `Alert rule ${request.params.ruleId} not found`);
    const rule = ruleFromBody(
      (request.body ?? {}) as Record<string, unknown>,
      { ruleId: existing.ruleId, aid: group.aid, isDefault: existing.isDefault },
      state,
    );
    if (Array.isArray(rule)) return problem(reply, 400, INVALID, undefined, rule);
    state.world.alertRules[index] = rule;
    linkTests(rule);
    return hal(reply).send(serializer.alertRule(rule, true));
  });

  app.delete<{ Params: { ruleId: string } }>('/alerts/rules/:ruleId', async (request, reply) => {
    const { group } = caller(request);
    const index = state.world.alertRules.findIndex(
      (candidate) => candidate.ruleId === request.params.ruleId && candidate.aid === group.aid,
    );
    const rule = state.world.alertRules[index];
    if (!rule) return problem(reply, 404, 'Not Found', `Alert rule ${request.params.ruleId} not found`);
    state.world.alertRules.splice(index, 1);
    linkTests(rule, true);
    return reply.status(204).send();
  });

  app.get('/alerts', async (request, reply) => {
    const { group, serializer } = caller(request);
    const range = timeRange(request, worldNow(), 90);
    if (range === 'invalid') return problem(reply, 400, 'Bad Request', 'Use window or startDate and endDate, not both');
    const state_ = queryOf(request).state ?? 'trigger';
    if (!['trigger', 'clear'].includes(state_))
      return problem(reply, 400, 'Bad Request', 'state must be trigger or clear');
    // trigger: alerts that started in the range (default: the last 90 days); clear: alerts that ended in it.
    const alerts = alertsOfGroup(state, group.aid, worldNow()).filter((alert) => {
      const at = Date.parse(state_ === 'trigger' ? alert.startDate : (alert.endDate ?? ''));
      return !Number.isNaN(at) && at >= range[0] && at <= range[1];
    });
    const page = paginate(request, alerts, 50, serializer.link('').href);
    if (page === 'invalid') return problem(reply, 400, 'Bad Request', 'Invalid cursor');
    return hal(reply).send({
      alerts: page.items.map((alert) => alertBody(alert, serializer)),
      startDate: new Date(range[0]).toISOString(),
      endDate: new Date(range[1]).toISOString(),
      _links: page.links,
    });
  });

  app.get('/alert-suppression-windows', async (request, reply) => {
    const { group, serializer } = caller(request);
    const windows = state.world.suppressionWindows.filter((window) => window.aid === group.aid);
    return hal(reply).send({
      alertSuppressionWindows: windows.map((window) => serializer.suppressionWindow(window, worldNow(), false)),
      _links: { self: serializer.link('/alert-suppression-windows') },
    });
  });

  app.get<{ Params: { windowId: string } }>('/alert-suppression-windows/:windowId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const window = state.world.suppressionWindows.find(
      (candidate) => candidate.alertSuppressionWindowId === request.params.windowId && candidate.aid === group.aid,
    );
    if (!window)
      return problem(reply, 404, 'Not Found', `Alert suppression window ${request.params.windowId} not found`);
    return hal(reply).send(
      serializer.suppressionWindow(window, worldNow(), list(queryOf(request).expand).includes('test')),
    );
  });

  /** A window from an `AlertSuppressionWindowRequest` body, or the field errors when it is not one. */
  const windowFromBody = (body: Record<string, unknown>, base: { alertSuppressionWindowId: string; aid: string }) => {
    const errors = [];
    if (typeof body.name !== 'string' || !body.name.trim())
      errors.push({ code: 'REQUIRED', field: 'name', message: 'name is required' });
    if (typeof body.startDate !== 'string' || Number.isNaN(Date.parse(body.startDate)))
      errors.push({ code: 'REQUIRED', field: 'startDate', message: 'startDate must be a date-time' });
    if (!Number.isInteger(body.duration) || Number(body.duration) <= 0)
      errors.push({ code: 'REQUIRED', field: 'duration', message: 'duration must be a positive number of seconds' });
    if (errors.length) return errors;
    return {
      ...base,
      name: String(body.name),
      isEnabled: body.isEnabled !== false,
      startDate: String(body.startDate),
      duration: Number(body.duration),
      repeat: body.repeat as never,
      endRepeat: body.endRepeat as never,
      testIds: Array.isArray(body.testIds) ? body.testIds.map(String) : [],
    };
  };

  app.post('/alert-suppression-windows', async (request, reply) => {
    const { group, serializer } = caller(request);
    const full = overLimit(
      reply,
      state.world.suppressionWindows.filter((item) => item.aid === group.aid).length,
      'suppression windows',
      'account group',
    );
    if (full) return full;
    const window = windowFromBody((request.body ?? {}) as Record<string, unknown>, {
      alertSuppressionWindowId: state.newId(),
      aid: group.aid,
    });
    if (Array.isArray(window)) return problem(reply, 400, INVALID, undefined, window);
    state.world.suppressionWindows.push(window);
    reply.header('Location', serializer.link(`/alert-suppression-windows/${window.alertSuppressionWindowId}`).href);
    return hal(reply)
      .status(201)
      .send(serializer.suppressionWindow(window, worldNow(), true));
  });

  app.put<{ Params: { windowId: string } }>('/alert-suppression-windows/:windowId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const index = state.world.suppressionWindows.findIndex(
      (candidate) => candidate.alertSuppressionWindowId === request.params.windowId && candidate.aid === group.aid,
    );
    if (index < 0)
      return problem(reply, 404, 'Not Found', `Alert suppression window ${request.params.windowId} not found`);
    const window = windowFromBody((request.body ?? {}) as Record<string, unknown>, {
      alertSuppressionWindowId: request.params.windowId,
      aid: group.aid,
    });
    if (Array.isArray(window)) return problem(reply, 400, INVALID, undefined, window);
    state.world.suppressionWindows[index] = window;
    return hal(reply).send(serializer.suppressionWindow(window, worldNow(), true));
  });

  app.delete<{ Params: { windowId: string } }>('/alert-suppression-windows/:windowId', async (request, reply) => {
    const { group } = caller(request);
    const index = state.world.suppressionWindows.findIndex(
      (candidate) => candidate.alertSuppressionWindowId === request.params.windowId && candidate.aid === group.aid,
    );
    if (index < 0)
      return problem(reply, 404, 'Not Found', `Alert suppression window ${request.params.windowId} not found`);
    state.world.suppressionWindows.splice(index, 1);
    return reply.status(204).send();
  });

  /** Webhook operations (Integrations API): what rules' webhook notifications name, per account group. */
  app.get('/operations/webhooks', async (request, reply) => {
    const { group, serializer } = caller(request);
    return hal(reply).send({
      items: state.world.webhooks
        .filter((hook) => hook.aid === group.aid)
        .map(({ aid: _aid, ...hook }) => ({
          ...hook,
          type: 'webhook',
          _links: { self: serializer.link(`/operations/webhooks/${hook.id}`) },
        })),
      _links: { self: serializer.link('/operations/webhooks') },
    });
  });
}

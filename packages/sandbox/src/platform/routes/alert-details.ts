import type { FastifyInstance } from 'fastify';
import type { Alert } from '../model.js';
import type { Serializer } from '../serialize.js';
import { derivedAlerts, type DerivedAlert } from '../simulation/measurements.js';
import type { PlatformState } from '../state.js';
import { problem } from './http.js';
import type { RouteContext } from './context.js';

/**
 * An account group's alerts now: the seeded ones, and those its rules derive over the simulated rounds (the
 * derived ones up to the world's moment are in the world already; the later ones, and the later state of those
 * still active then, are derived again here), newest first.
 */
export function alertsOfGroup(state: PlatformState, aid: string, now: number): (Alert | DerivedAlert)[] {
  const derived = derivedAlerts(state.world, aid, state.world.seed, now);
  const byId = new Map<string, Alert | DerivedAlert>(derived.map((alert) => [alert.id, alert]));
  const stored = state.world.alerts.filter((alert) => alert.aid === aid && !(alert.derived && byId.has(alert.id)));
  return [...stored, ...derived].sort((a, b) => b.startDate.localeCompare(a.startDate));
}

/** An alert as `/alerts` lists it; `meta.version` counts its changes of state (1 triggered, 2 cleared). */
export function alertBody(alert: Alert, serializer: Serializer) {
  return {
    id: alert.id,
    alertType: alert.alertType,
    alertRuleId: alert.alertRuleId,
    alertState: alert.alertState,
    alertSeverity: alert.alertSeverity,
    startDate: alert.startDate,
    ...(alert.endDate ? { endDate: alert.endDate } : {}),
    violationCount: alert.violationCount,
    duration: alert.duration,
    suppressed: alert.suppressed,
    meta: { version: alert.alertState === 'clear' ? 2 : 1 },
    _links: {
      self: serializer.link(`/alerts/${alert.id}`),
      test: serializer.link(`/tests/${alert.testId}`),
      rule: serializer.link(`/alerts/rules/${alert.alertRuleId}`),
    },
  };
}

/** `/alerts/{alertId}`: an alert with what met the rule's conditions, by agent, at its start and end. */
export function alertDetailRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  app.get<{ Params: { alertId: string } }>('/alerts/:alertId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const alert = alertsOfGroup(state, group.aid, worldNow()).find(
      (candidate) => candidate.id === request.params.alertId,
    );
    if (!alert) return problem(reply, 404, 'Not Found', `Alert ${request.params.alertId} not found`);
    const test = state.lookup.test(alert.testId);
    const agents = 'agentIds' in alert ? alert.agentIds : (test?.agentIds.slice(0, 1) ?? []);
    const cause = 'cause' in alert ? alert.cause : 'Alert rule conditions met';
    const { alertState, alertSeverity, ...rest } = alertBody(alert, serializer);
    return hal(reply).send({
      ...rest,
      state: alertState,
      severity: alertSeverity,
      alertState,
      alertSeverity,
      details: agents.map((agentId) => ({
        id: agentId,
        state: alertState,
        start: { metrics: `${cause} (${alert.startDate})` },
        ...(alert.endDate ? { end: { metrics: `No error (${alert.endDate})` } } : {}),
      })),
    });
  });
}

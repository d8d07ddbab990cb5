import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  dashboardMetricsSchema,
  REPORT_REQUEST_MESSAGES,
  reportRequestSchema,
  type DashboardMetrics,
} from '@ce/contract';
import { AppError } from '../../core/errors.js';
import { recordOf } from '../../core/json.js';
import { callName, originalCall } from './compat-kit.js';
import { checkCec, forward, tokenGroups } from './forward.js';
import { readOriginalBody } from './original-body.js';
import {
  createTest,
  firstGroup,
  groupAgents,
  missionOf,
  requestBackup,
  requestReport,
  requireToken,
} from './translations.js';

/**
 * The dashboard's counters, one call each in the original (spec section 7), read from the product's one. A Map:
 * the name comes from the path, and a plain object would also answer "constructor" or "__proto__".
 */
const METRICS = new Map<string, (metrics: DashboardMetrics) => Record<string, number>>([
  ['Metrics', (metrics) => ({ value: metrics.healthCheck })],
  ['Metrics-as', (metrics) => ({ value: metrics.caEaConfig })],
  ['Metrics-as-endp', (metrics) => ({ value: metrics.epaConfig })],
  ['Metrics-alerts-report', (metrics) => ({ value: metrics.alertsReport })],
  ['Metrics-as-closure', (metrics) => ({ value: metrics.psClosure })],
  ['Metrics-tams-weekly', (metrics) => ({ value: metrics.tamActivity })],
  ['Metrics-Dashboards', (metrics) => ({ cloned_count: metrics.provisionedDashboards })],
  ['Metrics-TimeTracker-hours', (metrics) => ({ TAMs: metrics.hours.tam, PS: metrics.hours.ps })],
]);
const metricParams = z.object({ metric: callName([...METRICS.keys()], 'No such counter: the counters are') });
/** The report calls: the Mission in the body picks the kind, whichever of these it comes to. */
const REPORT_CALLS = [
  'request-report',
  'request-as',
  'request-as7',
  'alert-reports7',
  'tams-reports7',
  'mv_report',
  'ahc7',
] as const;
const REPORT_READ_NAMES = ['te-health', 'as-built'] as const;
const REPORT_READS = new Set<string>(REPORT_READ_NAMES);
const readParams = z.object({
  read: callName(REPORT_READ_NAMES, 'No such call: the report reads are'),
  id: z.string(),
});

/** The original reports service's calls under `prefix`, each translated onto the product's operations. */
export function compatReportsRoutes(app: FastifyInstance, prefix: string): void {
  const metrics = async (request: Parameters<typeof forward>[1]) =>
    (await forward(app, request, { method: 'GET', url: '/api/dashboard/metrics' }, dashboardMetricsSchema)).body;

  originalCall(
    app,
    'GET',
    `${prefix}dashboard-metrics`,
    'compatDashboardMetrics',
    'The dashboard counters',
    (request) => metrics(request),
  );
  originalCall(
    app,
    'GET',
    `${prefix}:metric/`,
    'compatMetric',
    'One dashboard counter (Metrics/, Metrics-as/, ...)',
    async (request) => {
      const pick = METRICS.get(metricParams.parse(request.params).metric);
      if (!pick) throw new AppError(404, 'not_found', 'No such metric');
      return pick(await metrics(request));
    },
    { params: metricParams },
  );

  originalCall(
    app,
    'POST',
    `${prefix}accountgroups7/`,
    'compatAccountGroups',
    "The token's account groups",
    async (request) => {
      const token = requireToken(readOriginalBody(request.body));
      // A token the platform refuses is the product's 401, as the original answered.
      const groups = await tokenGroups(app, request, token);
      return groups.map((group) => ({ ...group, accountGroupId: group.aid }));
    },
  );
  originalCall(app, 'POST', `${prefix}agents7/`, 'compatAgents', "One account group's agents", async (request) => {
    const original = readOriginalBody(request.body);
    const aid = firstGroup(original);
    return { agents: (await groupAgents(app, request, requireToken(original), aid)).agents };
  });
  originalCall(app, 'POST', `${prefix}createtest7/`, 'compatCreateTest', 'Create one test', async (request, reply) => {
    const original = readOriginalBody(request.body);
    const aid = firstGroup(original);
    const data = recordOf(original.fields.testData ?? original.fields.test ?? original.fields);
    const created = await createTest(app, request, requireToken(original), aid, data);
    return reply.status(created.status).send(created.body);
  });

  originalCall(
    app,
    'GET',
    `${prefix}:read/:id`,
    'compatGetReport',
    'A report request (te-health/{id}, as-built/{id})',
    async (request) => {
      const { read, id } = readParams.parse(request.params);
      if (!REPORT_READS.has(read)) throw new AppError(404, 'not_found', 'No such call');
      return (
        await forward(
          app,
          request,
          { method: 'GET', url: `/api/reports/${encodeURIComponent(id)}` },
          reportRequestSchema,
        )
      ).body;
    },
    { params: readParams },
  );
  originalCall(
    app,
    'POST',
    `${prefix}:call/`,
    'compatRequestReport',
    'Request a report; the Mission picks the kind',
    async (request, reply, user) => {
      const original = readOriginalBody(request.body);
      const kind = missionOf(original);
      if (kind === 'backup') return reply.status(202).send(await requestBackup(app, request, user, original));
      return reply.status(202).send(await requestReport(app, request, user, original, kind));
    },
    { params: z.object({ call: callName(REPORT_CALLS, 'No such call: the report calls are') }) },
  );
  originalCall(
    app,
    'POST',
    `${prefix}backup-restore/`,
    'compatBackup',
    'Back up account groups',
    async (request, reply, user) => {
      const original = readOriginalBody(request.body);
      if (missionOf(original) !== 'backup')
        throw new AppError(400, 'mission_unknown', REPORT_REQUEST_MESSAGES.missionUnknown(original.mission ?? ''));
      return reply.status(202).send(await requestBackup(app, request, user, original));
    },
  );
  originalCall(
    app,
    'POST',
    `${prefix}Feedback/`,
    'compatFeedback',
    'Send feedback to the team',
    async (request, _reply, user) => {
      const original = readOriginalBody(request.body);
      checkCec(user, original.cec);
      return (
        await forward(app, request, { method: 'POST', url: '/api/feedback', payload: feedbackOf(original.fields) })
      ).body;
    },
  );
}

/** The original feedback form's words under whichever name it used, its score if it gave one. */
function feedbackOf(fields: Record<string, unknown>): { text: string; page?: string; rating?: number } {
  const words = ['feedback', 'message', 'text', 'comment', 'comments', 'description', 'body']
    .map((name) => fields[name])
    .find((value): value is string => typeof value === 'string' && value.trim() !== '');
  const rating = Number(fields.rating ?? fields.score);
  const page =
    typeof fields.page === 'string' ? fields.page : typeof fields.tool === 'string' ? fields.tool : undefined;
  return {
    text: words ?? '',
    ...(page ? { page: page.slice(0, 200) } : {}),
    ...(Number.isInteger(rating) && rating >= 1 && rating <= 5 ? { rating } : {}),
  };
}

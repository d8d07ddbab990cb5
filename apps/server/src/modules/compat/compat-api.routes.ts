import type { FastifyInstance } from 'fastify';
import { reportRequestSchema } from '@ce/contract';
import { AppError } from '../../core/errors.js';
import { recordOf } from '../../core/json.js';
import { originalCall } from './compat-kit.js';
import { forward, tokenGroups, until } from './forward.js';
import { readOriginalBody } from './original-body.js';
import { createTest, firstGroup, groupAgents, requestReport, requireToken, WAIT_MS } from './translations.js';

/** The shared bulk-test API's calls (getAccountGroups, getAgents, createTest, maintenanceWindowReport) under `prefix`. */
export function compatApiRoutes(app: FastifyInstance, prefix: string): void {
  const aidOf = (body: unknown) => firstGroup(readOriginalBody(body));

  originalCall(
    app,
    'POST',
    `${prefix}getAccountGroups`,
    'compatBulkAccountGroups',
    "The token's account groups",
    async (request) => {
      const groups = await tokenGroups(app, request, requireToken(readOriginalBody(request.body)));
      return {
        accountGroups: groups.map((group) => ({
          accountGroupId: group.aid,
          aid: group.aid,
          accountGroupName: group.accountGroupName,
          organizationName: group.organizationName,
        })),
      };
    },
  );
  originalCall(
    app,
    'POST',
    `${prefix}getAgents`,
    'compatBulkAgents',
    "One account group's agents",
    async (request) => ({
      agents: (await groupAgents(app, request, requireToken(readOriginalBody(request.body)), aidOf(request.body)))
        .agents,
    }),
  );
  originalCall(
    app,
    'POST',
    `${prefix}createTest`,
    'compatBulkCreateTest',
    'Create one test',
    async (request, reply) => {
      const original = readOriginalBody(request.body);
      const data = recordOf(original.fields.testData);
      const created = await createTest(app, request, requireToken(original), aidOf(request.body), data);
      return reply.status(created.status).send(created.body);
    },
  );
  originalCall(
    app,
    'POST',
    `${prefix}maintenanceWindowReport`,
    'compatMaintenanceWindowReport',
    'The maintenance window report, answered as HTML',
    async (request, reply, user) => {
      const { report } = await requestReport(app, request, user, readOriginalBody(request.body), 'maintenance-window');
      const read = async () =>
        (await forward(app, request, { method: 'GET', url: `/api/reports/${report.id}` }, reportRequestSchema)).body;
      const ended = await until(read, (value) => value.status === 'done' || value.status === 'failed', WAIT_MS);
      if (ended.status === 'failed') throw new AppError(502, 'report_failed', ended.error ?? 'The report failed');
      const html = ended.artifacts.find((artifact) => artifact.contentType.startsWith('text/html'));
      if (ended.status !== 'done' || !html)
        return reply.status(202).send({ message: 'The report is being made', reportId: ended.id });
      const file = await forward(app, request, {
        method: 'GET',
        url: `/api/reports/${ended.id}/artifacts/${html.id}`,
      });
      return { htmlReport: file.raw.toString('utf8'), reportId: ended.id };
    },
  );
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createReportInputSchema,
  reportListResponseSchema,
  reportRequestSchema,
  rerunReportInputSchema,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import type { ReportsService } from './reports.service.js';
import { errorResponses } from '../../core/errors.js';

const errors = errorResponses(400, 401, 403, 404);
const reportParams = z.object({ reportId: z.uuid() });

export const reportsRoutes: FastifyPluginAsyncZod<{ reports: ReportsService }> = async (app, { reports }) => {
  app.post(
    '/api/reports',
    {
      schema: {
        operationId: 'createReport',
        tags: ['reports'],
        summary: 'Request a report; it is produced in the background and delivered in Webex',
        body: createReportInputSchema,
        response: { 202: reportRequestSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(202).send(await reports.create(requireUser(request), request.body)),
  );

  app.get(
    '/api/reports',
    {
      schema: {
        operationId: 'listReports',
        tags: ['reports'],
        summary: "Your report requests, newest first (Super User: everyone's with scope=all)",
        querystring: z.object({ scope: z.enum(['mine', 'all']).default('mine') }),
        response: { 200: reportListResponseSchema, ...errors },
      },
    },
    async (request) => ({ reports: await reports.list(requireUser(request), request.query.scope) }),
  );

  app.get(
    '/api/reports/:reportId',
    {
      schema: {
        operationId: 'getReport',
        tags: ['reports'],
        summary: 'One report request with its progress and files',
        params: reportParams,
        response: { 200: reportRequestSchema, ...errors },
      },
    },
    async (request) => reports.get(requireUser(request), request.params.reportId),
  );

  app.get(
    '/api/reports/:reportId/artifacts/:artifactId',
    {
      schema: {
        operationId: 'downloadReportArtifact',
        tags: ['reports'],
        summary: 'Download one file of a report',
        params: z.object({ reportId: z.uuid(), artifactId: z.uuid() }),
        querystring: z.object({ inline: z.enum(['1']).optional() }),
      },
    },
    async (request, reply) => {
      const artifact = await reports.artifact(requireUser(request), request.params.reportId, request.params.artifactId);
      const inline = request.query.inline === '1' && artifact.contentType.startsWith('text/html');
      reply
        .type(artifact.contentType)
        .header(
          'content-disposition',
          `${inline ? 'inline' : 'attachment'}; filename="${artifact.filename.replace(/[^\w.-]/g, '_')}"`,
        )
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff');
      // Report HTML is shown in a sandboxed frame: no scripts, no requests, same-origin only as a frame.
      if (inline)
        reply.header(
          'content-security-policy',
          "sandbox; default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'",
        );
      return reply.send(artifact.content);
    },
  );

  app.post(
    '/api/reports/:reportId/rerun',
    {
      schema: {
        operationId: 'rerunReport',
        tags: ['reports'],
        summary: 'Run a report again with the same parameters and a freshly pasted token',
        params: reportParams,
        body: rerunReportInputSchema,
        response: { 202: reportRequestSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await reports.rerun(requireUser(request), request.params.reportId, request.body.token)),
  );
};

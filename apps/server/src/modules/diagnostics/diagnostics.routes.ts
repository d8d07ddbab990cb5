import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { diagnoseRequestSchema, diagnosticReportSchema, sendDiagnosticSchema } from '@ce/contract';
import { requireUser } from '../../core/access.js';
import { diagnosticHtml, type DiagnosticsService } from './diagnostics.service.js';
import { errorResponses } from '../../core/errors.js';

const errors = errorResponses(400, 401, 403, 404, 502, 503);
const params = z.object({ id: z.uuid() });

/** The diagnostic tool's API (Support group). */
export const diagnosticsRoutes: FastifyPluginAsyncZod<{ diagnostics: DiagnosticsService }> = async (
  app,
  { diagnostics },
) => {
  const tagged = { tags: ['support'] };
  app.post(
    '/api/diagnostics',
    {
      schema: {
        ...tagged,
        operationId: 'runDiagnostic',
        summary: "Diagnose a customer's token (used for this run only, never kept)",
        body: diagnoseRequestSchema,
        response: { 200: diagnosticReportSchema, ...errors },
      },
    },
    async (request) => diagnostics.run(requireUser(request), request.body.token),
  );

  app.get(
    '/api/diagnostics/:id/download',
    {
      schema: {
        ...tagged,
        operationId: 'downloadDiagnostic',
        summary: 'A diagnostic as JSON or HTML',
        params,
        querystring: z.object({ format: z.enum(['json', 'html']).default('json') }),
      },
    },
    async (request, reply) => {
      const report = await diagnostics.report(requireUser(request), request.params.id);
      const day = report.generatedAt.slice(0, 10);
      reply.header('x-content-type-options', 'nosniff').header('cache-control', 'private, no-store');
      if (request.query.format === 'html')
        return reply
          .type('text/html; charset=utf-8')
          .header('content-disposition', `attachment; filename="diagnostic-${day}.html"`)
          .header('content-security-policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'")
          .send(diagnosticHtml(report));
      return reply
        .type('application/json')
        .header('content-disposition', `attachment; filename="diagnostic-${day}.json"`)
        .send(JSON.stringify(report, null, 2));
    },
  );

  app.post(
    '/api/diagnostics/:id/send',
    {
      schema: {
        ...tagged,
        operationId: 'sendDiagnostic',
        summary: 'Send a diagnostic to a person in Webex',
        params,
        body: sendDiagnosticSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await diagnostics.send(requireUser(request), request.params.id, request.body.email);
      return reply.status(204).send(null);
    },
  );
};

import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createTasksRequestSchema,
  createTasksResponseSchema,
  parseResponseSchema,
  TEMPLATE_FILENAME,
  TRACKER_LIMITS,
  TRACKER_MESSAGES,
  weekStartSchema,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import { AppError, errorResponses } from '../../core/errors.js';
import { filePart, readUploadForm, registerUploads, type UploadForm } from '../../core/uploads.js';
import type { TrackerService } from './tracker.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 429, 502, 503);
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The upload's form: `file` (under 10 MB, stopped as it passes the limit) and `selectedDate` (the week's Monday). */
export const HOURS_UPLOAD_FORM: UploadForm = {
  fields: new Set(['selectedDate']),
  isFile: (fieldname) => fieldname === 'file',
  limits: { fileSize: TRACKER_LIMITS.fileBytes - 1, files: 1, fields: 4, fieldSize: 1024, parts: 5 },
  notMultipart: () => new AppError(400, 'multipart_required', TRACKER_MESSAGES.fileAndDateRequired),
  tooLarge: () => new AppError(400, 'file_too_large', TRACKER_MESSAGES.tooLarge),
};

async function readUpload(request: FastifyRequest): Promise<{ bytes: Buffer; weekStart: string }> {
  const form = await readUploadForm(request, HOURS_UPLOAD_FORM);
  const bytes = form.files.get('file');
  const selectedDate = form.fields.selectedDate ?? '';
  const weekStart = weekStartSchema.safeParse(selectedDate);
  if (!bytes || !weekStart.success) throw new AppError(400, 'validation_failed', TRACKER_MESSAGES.fileAndDateRequired);
  return { bytes, weekStart: weekStart.data };
}

/** The time tracker's API: the template, reading a file, creating tasks, and the results file. */
export const trackerRoutes: FastifyPluginAsyncZod<{ tracker: TrackerService }> = async (app, { tracker }) => {
  await registerUploads(app);
  const tagged = { tags: ['tracker'] };

  app.get(
    '/api/tracker/template',
    {
      schema: {
        ...tagged,
        operationId: 'downloadTrackerTemplate',
        summary: `The hours template (${TEMPLATE_FILENAME})`,
      },
    },
    async (_request, reply) =>
      reply
        .type(XLSX_TYPE)
        .header('content-disposition', `attachment; filename="${TEMPLATE_FILENAME}"`)
        .header('x-content-type-options', 'nosniff')
        .send(await tracker.templateFile()),
  );

  app.post(
    '/api/tracker/parse',
    {
      config: {
        upload: true,
        uploadForm: {
          required: ['file', 'selectedDate'],
          properties: {
            file: filePart('The hours file: .xlsx, .xls or .csv, under 10 MB, recognised by its content'),
            selectedDate: { type: 'string', format: 'date', description: 'The Monday of the week, YYYY-MM-DD' },
          },
        },
      },
      schema: {
        ...tagged,
        operationId: 'parseTimesheet',
        summary: 'Read an hours file (multipart: file, selectedDate); answers the rows and warnings',
        consumes: ['multipart/form-data'],
        response: { 200: parseResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { bytes, weekStart } = await readUpload(request);
      return tracker.parse(user, bytes, weekStart);
    },
  );

  app.post(
    '/api/tracker/tasks',
    {
      schema: {
        ...tagged,
        operationId: 'createTrackerTasks',
        summary: 'Create Salesforce tasks from the selected rows (each row once)',
        body: createTasksRequestSchema,
        response: { 200: createTasksResponseSchema, ...errors },
      },
    },
    async (request) =>
      tracker.createTasks(requireUser(request), request.body.weekStart, request.body.fileName, request.body.tasks),
  );

  app.get(
    '/api/tracker/results/:id',
    {
      schema: {
        ...tagged,
        operationId: 'downloadTrackerResults',
        summary: 'The results file of a creation: the rows with their Salesforce Id or error',
        params: z.object({ id: z.uuid() }),
      },
    },
    async (request, reply) => {
      const file = await tracker.resultsFile(requireUser(request), request.params.id);
      return reply
        .type(XLSX_TYPE)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.content);
    },
  );
};

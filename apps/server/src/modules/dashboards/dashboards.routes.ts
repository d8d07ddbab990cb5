import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cloneDashboardFieldsSchema,
  communityDashboardSchema,
  communityListQuerySchema,
  communityListResponseSchema,
  DASHBOARD_LIMITS,
  DASHBOARD_MESSAGES,
  dashboardTemplateResponseSchema,
  groupDashboardsRequestSchema,
  groupDashboardsResponseSchema,
  pushPlanSchema,
  pushRequestSchema,
  pushResponseSchema,
  reviewRequestSchema,
  statusRequestSchema,
  voteRequestSchema,
  voteResponseSchema,
  type CloneDashboardFields,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import { AppError, errorResponses } from '../../core/errors.js';
import { filePart, readUploadForm, registerUploads, type UploadForm } from '../../core/uploads.js';
import type { DashboardPushService } from './dashboards-push.service.js';
import type { DashboardsService } from './dashboards.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 502);
const entryParams = z.object({ id: z.uuid() });
const SCREENSHOT_PART = filePart('PNG, JPEG, GIF or WebP, 5 MB at most');
const TEXT_FIELDS = new Set(['token', 'organizationId', 'aid', 'dashboardId', 'description']);

/**
 * The clone form: its text fields and `screenshot1` to `screenshot3`, each at most 5 MB (a larger one is
 * refused with the spec's message as soon as it passes the limit).
 */
export const CLONE_UPLOAD_FORM: UploadForm = {
  fields: TEXT_FIELDS,
  isFile: (fieldname) => /^screenshot[1-3]$/.test(fieldname),
  limits: {
    fileSize: DASHBOARD_LIMITS.screenshotBytes,
    files: DASHBOARD_LIMITS.screenshots,
    fields: TEXT_FIELDS.size,
    fieldSize: 16 * 1024,
    parts: TEXT_FIELDS.size + DASHBOARD_LIMITS.screenshots,
  },
  notMultipart: () => new AppError(400, 'multipart_required', 'Send the clone form as multipart/form-data'),
  tooLarge: (fieldname) =>
    new AppError(400, 'file_too_large', DASHBOARD_MESSAGES.tooLarge, [
      { path: fieldname, message: DASHBOARD_MESSAGES.tooLarge },
    ]),
};

/** Reads the clone form's multipart body. */
async function readCloneForm(
  request: FastifyRequest,
): Promise<{ fields: CloneDashboardFields; files: Map<number, Buffer> }> {
  const form = await readUploadForm(request, CLONE_UPLOAD_FORM);
  const text = form.fields;
  const files = new Map([...form.files].map(([fieldname, bytes]) => [Number(fieldname.slice(-1)), bytes]));
  const parsed = cloneDashboardFieldsSchema.safeParse(text);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
    throw new AppError(400, 'validation_failed', fields[0]?.message ?? DASHBOARD_MESSAGES.formInvalid, fields);
  }
  return { fields: parsed.data, files };
}

/** The dashboard manager's API: clone into the gallery, the gallery itself, and the push. */
export const dashboardsRoutes: FastifyPluginAsyncZod<{
  dashboards: DashboardsService;
  pushes: DashboardPushService;
}> = async (app, { dashboards, pushes }) => {
  await registerUploads(app);
  const tagged = { tags: ['dashboards'] };

  app.post(
    '/api/dashboards/group',
    {
      schema: {
        ...tagged,
        operationId: 'listGroupDashboards',
        summary: "The dashboards of one of the token's account groups",
        body: groupDashboardsRequestSchema,
        response: { 200: groupDashboardsResponseSchema, ...errors },
      },
    },
    async (request) => ({ dashboards: await dashboards.groupDashboards(request.body.token, request.body.aid) }),
  );

  app.post(
    '/api/community-dashboards',
    {
      config: {
        upload: true,
        uploadForm: {
          required: [
            'token',
            'organizationId',
            'aid',
            'dashboardId',
            'description',
            'screenshot1',
            'screenshot2',
            'screenshot3',
          ],
          properties: {
            token: { type: 'string', description: 'The customer organization’s OAuth token' },
            organizationId: { type: 'string' },
            aid: { type: 'string', description: 'The account group holding the dashboard' },
            dashboardId: { type: 'string' },
            description: { type: 'string', minLength: 50 },
            screenshot1: SCREENSHOT_PART,
            screenshot2: SCREENSHOT_PART,
            screenshot3: SCREENSHOT_PART,
          },
        },
      },
      schema: {
        ...tagged,
        operationId: 'cloneDashboard',
        summary:
          'Clone a dashboard into the community gallery (multipart: token, organizationId, aid, dashboardId, description, screenshot1-3)',
        consumes: ['multipart/form-data'],
        response: { 201: communityDashboardSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { fields, files } = await readCloneForm(request);
      return reply.status(201).send(await dashboards.clone(requireUser(request), fields, files));
    },
  );

  app.get(
    '/api/community-dashboards',
    {
      schema: {
        ...tagged,
        operationId: 'listCommunityDashboards',
        summary: 'The community gallery, searched and sorted',
        querystring: communityListQuerySchema,
        response: { 200: communityListResponseSchema, ...errors },
      },
    },
    async (request) => ({
      dashboards: await dashboards.list(requireUser(request), request.query.search, request.query.sort),
    }),
  );

  app.get(
    '/api/community-dashboards/:id/template',
    {
      schema: {
        ...tagged,
        operationId: 'getDashboardTemplate',
        summary: "A gallery dashboard's stored definition",
        params: entryParams,
        response: { 200: dashboardTemplateResponseSchema, ...errors },
      },
    },
    async (request) => ({ dashboardTemplate: await dashboards.template(request.params.id) }),
  );

  app.get(
    '/api/community-dashboards/:id/images/:position',
    {
      schema: {
        ...tagged,
        operationId: 'getDashboardImage',
        summary: 'One screenshot of a gallery dashboard (PNG, re-encoded when it was stored)',
        params: entryParams.extend({ position: z.coerce.number().int().min(1).max(DASHBOARD_LIMITS.screenshots) }),
      },
    },
    async (request, reply) => {
      const image = await dashboards.image(request.params.id, request.params.position);
      return reply
        .type('image/png')
        .header('content-disposition', `inline; filename="screenshot-${request.params.position}.png"`)
        .header('cache-control', 'private, max-age=86400, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(image);
    },
  );

  app.post(
    '/api/community-dashboards/:id/vote',
    {
      schema: {
        ...tagged,
        operationId: 'voteDashboard',
        summary: "Add ('Vote') or take back ('Voted') the caller's vote",
        params: entryParams,
        body: voteRequestSchema,
        response: { 200: voteResponseSchema, ...errors },
      },
    },
    async (request) => dashboards.vote(requireUser(request), request.params.id, request.body.action),
  );

  app.post(
    '/api/community-dashboards/:id/reviews',
    {
      schema: {
        ...tagged,
        operationId: 'reviewDashboard',
        summary: 'Write a short review of a gallery dashboard',
        params: entryParams,
        body: reviewRequestSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await dashboards.review(requireUser(request), request.params.id, request.body.text);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/community-dashboards/:id/status',
    {
      schema: {
        ...tagged,
        operationId: 'setDashboardStatus',
        summary: 'Approve or reject a gallery dashboard, with a comment (reviewers)',
        params: entryParams,
        body: statusRequestSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await dashboards.setStatus(requireUser(request), request.params.id, request.body.status, request.body.comment);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/community-dashboards/:id/push-plan',
    {
      schema: {
        ...tagged,
        operationId: 'planDashboardPush',
        summary: 'What pushing into an account group would map and drop, before it is done',
        params: entryParams,
        body: pushRequestSchema,
        response: { 200: pushPlanSchema, ...errors },
      },
    },
    async (request) => pushes.plan(request.params.id, request.body),
  );

  app.post(
    '/api/community-dashboards/:id/push',
    {
      schema: {
        ...tagged,
        operationId: 'pushDashboard',
        summary: 'Create the dashboard in an account group with its references remapped and its layout rewritten',
        params: entryParams,
        body: pushRequestSchema,
        response: { 201: pushResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await pushes.push(requireUser(request), request.params.id, request.body)),
  );
};

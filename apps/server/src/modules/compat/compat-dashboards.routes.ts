import type { FastifyInstance } from 'fastify';
import {
  communityDashboardSchema,
  type CommunityDashboard,
  communityListResponseSchema,
  groupDashboardsResponseSchema,
  voteResponseSchema,
} from '@ce/contract';
import { AppError } from '../../core/errors.js';
import { originalCall } from './compat-kit.js';
import { forward, organizationOf, tokenGroups } from './forward.js';
import { CLONE_UPLOAD_FORM } from '../dashboards/index.js';
import { encodeForm, readOriginalForm } from './multipart.js';
import { firstGroup, missionBody, requireToken } from './translations.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The original clone form (spec section 7: OAuth, Mission, cec, description, dashboardId, aid, screenshot1 to
 * screenshot3): the product's clone form with the original's text fields, so its files and sizes.
 */
const CLONE_FIELDS = new Set(['OAuth', 'Mission', 'cec', 'description', 'dashboardId', 'aid']);
const ORIGINAL_CLONE_FORM = {
  ...CLONE_UPLOAD_FORM,
  fields: CLONE_FIELDS,
  limits: {
    ...CLONE_UPLOAD_FORM.limits,
    fields: CLONE_FIELDS.size,
    parts: CLONE_FIELDS.size + CLONE_UPLOAD_FORM.limits.files,
  },
};

/** A gallery entry in the original's fields (spec section 3); its screenshots by address rather than inline. */
const original = (entry: CommunityDashboard) => ({
  id: entry.id,
  dashboardId: entry.dashboardId,
  title: entry.title,
  description: entry.description,
  creator: entry.creator,
  submittedDate: entry.submittedDate,
  status: entry.status,
  votes: entry.votes,
  user_voted: entry.userVoted,
  images: Array.from(
    { length: entry.imageCount },
    (_, index) => `/api/community-dashboards/${entry.id}/images/${index + 1}`,
  ),
});

/** The original dashboards service's calls under `prefix`: the answers carry `status: 'success'` and `data`. */
export function compatDashboardsRoutes(app: FastifyInstance, prefix: string): void {
  originalCall(
    app,
    'POST',
    `${prefix}get-dashboard/`,
    'compatGetDashboards',
    "An account group's dashboards",
    async (request, _reply, user) => {
      const body = missionBody(request.body, user, 'Get Dashboard');
      const aid = firstGroup(body);
      const answer = await forward(
        app,
        request,
        { method: 'POST', url: '/api/dashboards/group', payload: { token: requireToken(body), aid } },
        groupDashboardsResponseSchema,
      );
      return { status: 'success', data: { dashboards: answer.body.dashboards } };
    },
  );

  originalCall(
    app,
    'POST',
    `${prefix}save-dashboard/`,
    'compatSaveDashboard',
    'Clone a dashboard into the gallery (multipart: OAuth, Mission, cec, description, dashboardId, aid, screenshot1-3)',
    async (request, _reply, user) => {
      const { fields, files } = await readOriginalForm(request, ORIGINAL_CLONE_FORM);
      const body = missionBody(fields, user, 'Clone Dashboard');
      const token = requireToken(body);
      const aid = firstGroup(body);
      const organization = organizationOf(await tokenGroups(app, request, token), [{ aid }], null);
      const clone = new FormData();
      clone.set('token', token);
      clone.set('organizationId', organization.id);
      clone.set('aid', aid);
      clone.set('dashboardId', fields.dashboardId ?? '');
      clone.set('description', fields.description ?? '');
      // The clone reads a screenshot by its content, not by its name.
      for (const [name, bytes] of files) clone.set(name, new Blob([new Uint8Array(bytes)]), `${name}.png`);
      const { payload, contentType } = await encodeForm(clone);
      const answer = await forward(
        app,
        request,
        { method: 'POST', url: '/api/community-dashboards', payload, headers: { 'content-type': contentType } },
        communityDashboardSchema,
      );
      return { status: 'success', message: 'Dashboard stored successfully', data: original(answer.body) };
    },
    { config: { upload: true } },
  );

  originalCall(
    app,
    'POST',
    `${prefix}get-dashboard/all`,
    'compatAllDashboards',
    'The gallery',
    async (request, _reply, user) => {
      missionBody(request.body, user, 'Show All Dashboards');
      const answer = await forward(
        app,
        request,
        { method: 'GET', url: '/api/community-dashboards' },
        communityListResponseSchema,
      );
      return { status: 'success', data: answer.body.dashboards.map(original) };
    },
  );

  originalCall(
    app,
    'POST',
    `${prefix}vote/`,
    'compatVoteDashboard',
    "Add ('Vote') or take back ('Voted') a vote",
    async (request, _reply, user) => {
      const body = missionBody(request.body, user, 'Dash Vote');
      const id = String(body.fields.id ?? '');
      const answer = await forward(
        app,
        request,
        {
          method: 'POST',
          url: `/api/community-dashboards/${encodeURIComponent(id)}/vote`,
          payload: { action: body.fields.action },
        },
        voteResponseSchema,
      );
      return {
        status: 'success',
        data: { votes: answer.body.votes, user_voted: answer.body.userVoted },
        message: answer.body.message,
      };
    },
  );

  originalCall(
    app,
    'POST',
    `${prefix}create/`,
    'compatPushDashboard',
    'Push a gallery dashboard into an account group',
    async (request, reply, user) => {
      const body = missionBody(request.body, user, 'Push Dashboard');
      const token = requireToken(body);
      const aid = firstGroup(body);
      const organization = organizationOf(await tokenGroups(app, request, token), [{ aid }], body.orgName);
      // The original names the gallery entry by its source dashboard's id (or the entry's own).
      const wanted = String(body.fields.id ?? body.fields.dashboardId ?? '');
      const gallery = await forward(
        app,
        request,
        { method: 'GET', url: '/api/community-dashboards' },
        communityListResponseSchema,
      );
      // By the entry's id, else the newest entry cloned from that dashboard.
      const entry =
        gallery.body.dashboards.find((candidate) => candidate.id === wanted) ??
        gallery.body.dashboards
          .filter((candidate) => candidate.dashboardId === wanted)
          .sort((a, b) => b.submittedDate.localeCompare(a.submittedDate))[0];
      if (!entry) throw new AppError(404, 'dashboard_not_found', `No dashboard ${wanted} in the gallery`);
      // The original sent no push key: a script that retries may send one (`pushId` or an Idempotency-Key
      // header, a UUID) so that a repeated call answers the dashboard the first one made.
      const key = String(body.fields.pushId ?? request.headers['idempotency-key'] ?? '');
      const pushId = UUID.test(key) ? { pushId: key.toLowerCase() } : {};
      const pushed = await forward(app, request, {
        method: 'POST',
        url: `/api/community-dashboards/${entry.id}/push`,
        payload: { token, organizationId: organization.id, aid, ...pushId },
      });
      return reply
        .status(201)
        .send({ status: 'success', message: 'Dashboard deployed successfully', data: pushed.body });
    },
  );
}

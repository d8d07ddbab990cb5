import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  REPORT_KINDS,
  REPORT_REQUEST_MESSAGES,
  REPORT_TOASTS,
  COMPAT_MESSAGES,
  missionKind,
  bulkAgentsResponseSchema,
  bulkRunItemSchema,
  bulkRunSchema,
  reportRequestSchema,
  type ReportKind,
  type ReportRequest,
  type SessionUser,
} from '@ce/contract';
import { AppError } from '../../core/errors.js';
import { isRecord } from '../../core/json.js';
import { checkCec, forward, organizationOf, tokenGroups, until } from './forward.js';
import { readOriginalBody, type OriginalRequest } from './original-body.js';

type Json = Record<string, unknown>;
/** What a test's creation reads of its bulk run: its state and its one item's. */
const BULK_RUN = bulkRunSchema.pick({ id: true, status: true, error: true }).extend({
  items: z.array(bulkRunItemSchema.pick({ status: true, resultId: true, error: true, note: true })),
});
/** How long a call that the original answered at once waits for the product's job before saying it is under way. */
export const WAIT_MS = 120_000;

export function requireToken(original: OriginalRequest): string {
  if (!original.token) throw new AppError(400, 'token_missing', COMPAT_MESSAGES.tokenMissing);
  return original.token;
}

/** The first account group the body names, refused in the spec's words when it names none. */
export function firstGroup(original: OriginalRequest): string {
  const aid = original.groups[0]?.aid;
  if (!aid) throw new AppError(400, 'no_account_groups', REPORT_REQUEST_MESSAGES.noAccountGroups);
  return aid;
}

/**
 * A body of a service whose calls are told apart by their Mission (dashboards, tracker): refused unless it
 * carries this call's Mission and names the caller in `cec`.
 */
export function missionBody(raw: unknown, user: SessionUser, mission: string): OriginalRequest {
  const body = readOriginalBody(raw);
  if (!body.mission) throw new AppError(400, 'mission_missing', REPORT_REQUEST_MESSAGES.missionMissing);
  if (body.mission.toLowerCase() !== mission.toLowerCase())
    throw new AppError(400, 'mission_unknown', REPORT_REQUEST_MESSAGES.missionUnknown(body.mission.slice(0, 100)));
  checkCec(user, body.cec);
  return body;
}

/** The kind a `Mission` names, refused in the spec's words when missing or unknown. */
export function missionOf(original: OriginalRequest): ReportKind | 'backup' {
  if (!original.mission) throw new AppError(400, 'mission_missing', REPORT_REQUEST_MESSAGES.missionMissing);
  const kind = missionKind(original.mission);
  if (!kind)
    throw new AppError(400, 'mission_unknown', REPORT_REQUEST_MESSAGES.missionUnknown(original.mission.slice(0, 100)));
  return kind;
}

/** A report request of the original shape, as the product's `createReport`: its answer and the spec's toast. */
export async function requestReport(
  app: FastifyInstance,
  request: FastifyRequest,
  user: SessionUser,
  original: OriginalRequest,
  kind: ReportKind,
): Promise<{ message: string; report: ReportRequest }> {
  checkCec(user, original.cec);
  const token = requireToken(original);
  if (REPORT_KINDS[kind].needsAccounts && original.groups.length === 0)
    throw new AppError(400, 'no_account_groups', REPORT_REQUEST_MESSAGES.noAccountGroups);
  const groups = await tokenGroups(app, request, token);
  const organization = organizationOf(groups, original.groups, original.orgName);
  const names = new Map(groups.map((group) => [group.aid, group.accountGroupName]));
  const options: Json = {};
  if (original.daysRange !== null && (kind === 'ahc-ie' || kind === 'tam-activity'))
    options.daysRange = original.daysRange;
  if (original.tables && kind === 'ahc-ie') options.tables = original.tables;
  if (original.planner && kind === 'tam-activity') options.planner = original.planner;
  const answer = await forward(
    app,
    request,
    {
      method: 'POST',
      url: '/api/reports',
      payload: {
        kind,
        token,
        organization,
        accountGroups: original.groups.map((group) => ({
          aid: group.aid,
          accountGroupName: group.accountGroupName || names.get(group.aid) || group.aid,
        })),
        options,
      },
    },
    reportRequestSchema,
  );
  return { message: REPORT_TOASTS[kind].success, report: answer.body };
}

/** A backup of the original shape (`backup-restore/`), as the product's `createBackups`. */
export async function requestBackup(
  app: FastifyInstance,
  request: FastifyRequest,
  user: SessionUser,
  original: OriginalRequest,
): Promise<unknown> {
  checkCec(user, original.cec);
  const token = requireToken(original);
  if (original.groups.length === 0)
    throw new AppError(400, 'no_account_groups', REPORT_REQUEST_MESSAGES.noAccountGroups);
  const organization = organizationOf(await tokenGroups(app, request, token), original.groups, original.orgName);
  const answer = await forward(
    app,
    request,
    {
      method: 'POST',
      url: '/api/backups',
      payload: { token, organization, accountGroups: original.groups.map((group) => ({ aid: group.aid })) },
    },
    z.object({ backups: z.array(z.unknown()) }),
  );
  return { message: 'Backup requested successfully', ...answer.body };
}

/** The agents of one account group, in the spec's Agent fields (the product's `listBulkAgents`). */
export async function groupAgents(app: FastifyInstance, request: FastifyRequest, token: string, aid: string) {
  const groups = await tokenGroups(app, request, token);
  const group = groups.find((candidate) => candidate.aid === aid);
  if (!group) throw new AppError(400, 'account_group_unknown', `The token sees no account group ${aid}.`);
  const answer = await forward(
    app,
    request,
    {
      method: 'POST',
      url: '/api/bulk/agents',
      payload: { token, accountGroups: [{ aid, accountGroupName: group.accountGroupName }] },
    },
    bulkAgentsResponseSchema,
  );
  const [listed] = answer.body.groups;
  if (listed?.error) throw new AppError(502, 'agents_failed', listed.error);
  return { group, groups, agents: listed?.agents ?? [] };
}

/**
 * One test of the original creation payload (spec section 3: testName, type, interval, agents by id,
 * alertsEnabled, description, url / domain / server and port), created through a bulk run of one template,
 * so it is created exactly once; waits for the run and answers the created test's id as the original did.
 */
export async function createTest(
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
  aid: string,
  data: Json,
): Promise<{ status: number; body: Json }> {
  const { group, groups, agents } = await groupAgents(app, request, token, aid);
  const ids = (
    Array.isArray(data.agents) ? data.agents : Array.isArray(data.selectedAgents) ? data.selectedAgents : []
  ).map((agent) => String(isRecord(agent) ? agent.agentId : agent));
  const agentNames = ids.map((id) => {
    const agent = agents.find((candidate) => candidate.agentId === id);
    if (!agent) throw new AppError(400, 'agent_unknown', `No agent ${id} in ${group.accountGroupName}.`);
    return agent.agentName;
  });
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const template = {
    testName: text(data.testName),
    testType: text(data.type) || text(data.testType) || 'http-server',
    interval: Number(data.interval ?? 300),
    url: text(data.url),
    domain: text(data.domain) || text(data.server),
    port: Number(data.port ?? 80),
    dnsServers: Array.isArray(data.dnsServers) ? data.dnsServers.map(String).join(', ') : text(data.dnsServers),
    prefix: text(data.prefix),
    agentNames,
    alertsEnabled: data.alertsEnabled !== false,
    description: text(data.description),
  };
  const started = await forward(
    app,
    request,
    {
      method: 'POST',
      url: '/api/bulk/runs',
      payload: {
        kind: 'tests',
        token,
        organization: organizationOf(groups, [{ aid }], null),
        accountGroups: [{ aid, accountGroupName: group.accountGroupName }],
        templates: [template],
        onConflict: 'skip',
      },
    },
    BULK_RUN.pick({ id: true }),
  );
  const run = await until(
    async () =>
      (await forward(app, request, { method: 'GET', url: `/api/bulk/runs/${started.body.id}` }, BULK_RUN)).body,
    (value) => value.status === 'done' || value.status === 'failed',
    WAIT_MS,
  );
  const [item] = run.items;
  if (run.status !== 'done' && run.status !== 'failed')
    return { status: 202, body: { message: 'The test is being created', runId: run.id } };
  if (item?.status === 'done' && item.resultId)
    return {
      status: 201,
      body: {
        success: true,
        testId: item.resultId,
        test: { testId: item.resultId, testName: template.testName },
        runId: run.id,
      },
    };
  const error = item?.error ?? item?.note ?? run.error ?? 'Failed to create test';
  throw new AppError(item?.status === 'skipped' ? 409 : 400, 'test_not_created', error);
}

import { z } from 'zod';
import type { CheckStatus, DiagnosticCheck, DiagnosticReport } from '@ce/contract';
import type { PlatformClient } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';
import { INVALID_TOKEN_MESSAGE } from '../customer/customer.service.js';
import { collect, readable } from '../../report-kit/platform-reads.js';
import { PROBES, TOOL_NEEDS, WRITE } from './tool-needs.js';

const ANSWER_WARN_MS = 1_000;
const ANSWER_FAIL_MS = 3_000;
const ENDPOINT_SILENT_DAYS = 7;
/** Per-group reads stop after this many groups (a big organization is sampled, and says so). */
const MAX_GROUPS = 25;
const DAY_MS = 86_400_000;

/** The account groups read, as far as the report uses it. */
const groupsAnswer = z.object({
  accountGroups: z
    .array(
      z.looseObject({
        aid: z.unknown().optional(),
        accountGroupName: z.string(),
        organizationName: z.string().optional(),
        isDefaultGroup: z.unknown().optional(),
      }),
    )
    .optional(),
});

const ago = (iso: string | undefined, now: number) => {
  if (!iso) return 'never seen';
  const days = Math.floor((now - Date.parse(iso)) / DAY_MS);
  return days <= 0 ? 'seen today' : `last seen ${days} day${days === 1 ? '' : 's'} ago`;
};
const check = (
  id: string,
  title: string,
  status: CheckStatus,
  detail: string,
  items: string[] = [],
): DiagnosticCheck => ({
  id,
  title,
  status,
  detail,
  items: items.slice(0, 200),
});

/**
 * Looks at a customer's token the way a support engineer would: whose it is and with which roles, what it
 * may read (each permission proved by a read), what each toolkit tool would miss, the organization's
 * rate-limit headroom and the platform's answer time, and the state of agents, tests and quota.
 */
export async function diagnose(
  platform: PlatformClient,
  token: string,
  id: string,
  now = Date.now(),
): Promise<DiagnosticReport> {
  const auth = { token };
  const first = await platform.http.exchange(auth, platform.http.url('account-groups'));
  if (first.status === 401) throw new AppError(401, 'invalid_platform_token', INVALID_TOKEN_MESSAGE);
  if (first.status >= 400)
    throw new AppError(502, 'platform_error', `The platform answered ${first.status} to the account groups read.`);
  const listed = groupsAnswer.safeParse(first.body);
  if (!listed.success)
    throw new AppError(502, 'platform_error', 'The platform answered the account groups read with something else.');
  const groups = (listed.data.accountGroups ?? []).map((group) => ({
    aid: String(group.aid),
    accountGroupName: group.accountGroupName,
    organizationName: group.organizationName ?? 'N/A',
    isDefault: group.isDefaultGroup === true,
  }));
  const rate = {
    limit: Number(first.headers['x-organization-rate-limit-limit']),
    remaining: Number(first.headers['x-organization-rate-limit-remaining']),
    reset: Number(first.headers['x-organization-rate-limit-reset']),
  };
  const rateLimit =
    Number.isFinite(rate.limit) && Number.isFinite(rate.remaining) && rate.limit > 0
      ? {
          limit: rate.limit,
          remaining: rate.remaining,
          resetAt: Number.isFinite(rate.reset) && rate.reset > 0 ? new Date(rate.reset * 1000).toISOString() : null,
        }
      : null;

  const session = platform.as(auth);
  const home = groups.find((group) => group.isDefault) ?? groups[0];
  const [current, probes] = await Promise.all([
    readable('the current user', 'View users', () => session.users.current()),
    Promise.all(
      PROBES.map(async (probe) => {
        const answer = await platform.http.exchange(
          auth,
          platform.http.url(probe.path, 'query' in probe ? probe.query : {}, home?.aid),
        );
        return { name: probe.name, status: answer.status };
      }),
    ),
  ]);

  const roles = current.ok
    ? (current.value.accountGroupRoles ?? []).map((entry) => ({
        aid: String(entry.accountGroup.aid),
        accountGroupName: String(entry.accountGroup.accountGroupName ?? ''),
        roles: (entry.roles ?? []).map((role) => role.name ?? 'Unknown'),
        manages: (entry.roles ?? []).some((role) => role.hasManagementPermissions === true),
      }))
    : [];
  const isOrgAdmin = roles.some((entry) => entry.roles.includes('Organization Admin'));
  const permissions: DiagnosticReport['permissions'] = probes.map((probe) => ({
    name: probe.name,
    status: probe.status < 300 ? 'granted' : probe.status === 403 || probe.status === 404 ? 'missing' : 'unknown',
    via: `GET /${PROBES.find((item) => item.name === probe.name)?.path} answered ${probe.status}`,
  }));
  permissions.push({
    name: WRITE,
    status: !current.ok ? 'unknown' : roles.some((entry) => entry.manages) ? 'granted' : 'missing',
    via: current.ok ? 'the roles of /users/current (a role with management permissions)' : '/users/current was refused',
  });
  const granted = new Set(permissions.filter((item) => item.status === 'granted').map((item) => item.name));
  const unknown = new Set(permissions.filter((item) => item.status === 'unknown').map((item) => item.name));
  const tools = TOOL_NEEDS.map(([tool, needs]) => {
    const missing = needs.filter((need) => !granted.has(need) && !unknown.has(need));
    return { tool, needs, missing, ready: missing.length === 0 && needs.every((need) => granted.has(need)) };
  });

  // The state of the organization, per account group (sampled beyond 25 groups).
  const sampled = groups.slice(0, MAX_GROUPS);
  const perGroup = await Promise.all(
    sampled.map(async (group) => ({
      group,
      agents: granted.has('View agents')
        ? await readable('the agents', 'View agents', () =>
            session.agents.list({ aid: group.aid, agentTypes: ['enterprise'] }),
          )
        : ({ ok: false, reason: '' } as const),
      tests: granted.has('View tests')
        ? await readable('the tests', 'View tests', () => session.tests.list(group.aid))
        : ({ ok: false, reason: '' } as const),
    })),
  );
  const endpoint = granted.has('View endpoint agents')
    ? await readable('the endpoint agents', 'View endpoint agents', () =>
        collect(session.endpointAgents.list(home?.aid)),
      )
    : ({ ok: false, reason: '' } as const);
  const usage = granted.has('View usage and quotas')
    ? await readable('the usage', 'View usage and quotas', () => session.usage.get())
    : ({ ok: false, reason: '' } as const);

  const checks: DiagnosticCheck[] = [];
  checks.push(
    check(
      'token',
      'The token is accepted',
      'pass',
      `It sees ${groups.length} account group${groups.length === 1 ? '' : 's'}.`,
    ),
  );
  checks.push(
    !current.ok
      ? check('org-admin', 'Org Admin', 'unknown', 'Unknown: /users/current was refused.')
      : isOrgAdmin
        ? check('org-admin', 'Org Admin', 'pass', `${current.value.email} is an Organization Admin.`)
        : check(
            'org-admin',
            'Org Admin',
            'fail',
            "The token is not an Organization Admin's: the toolkit asks for one (spec section 6).",
            roles.map((entry) => `${entry.accountGroupName}: ${entry.roles.join(', ')}`),
          ),
  );
  const missing = permissions.filter((item) => item.status === 'missing');
  checks.push(
    check(
      'permissions',
      'Permissions the toolkit needs',
      missing.length ? 'fail' : 'pass',
      missing.length
        ? `${missing.length} missing: ${missing.map((item) => item.name).join(', ')}.`
        : 'Every permission the toolkit reads with is granted.',
      missing.map((item) => `${item.name} (${item.via})`),
    ),
  );
  if (rateLimit) {
    const share = rateLimit.remaining / rateLimit.limit;
    checks.push(
      check(
        'rate-limit',
        'Rate-limit headroom',
        share >= 0.5 ? 'pass' : share >= 0.1 ? 'warn' : 'fail',
        `${rateLimit.remaining} of ${rateLimit.limit} requests left in this minute${rateLimit.resetAt ? `, reset at ${rateLimit.resetAt}` : ''}.`,
      ),
    );
  } else
    checks.push(
      check('rate-limit', 'Rate-limit headroom', 'unknown', 'The platform sent no X-Organization-Rate-Limit headers.'),
    );
  checks.push(
    check(
      'answer-time',
      'Platform answer time',
      first.durationMs < ANSWER_WARN_MS ? 'pass' : first.durationMs < ANSWER_FAIL_MS ? 'warn' : 'fail',
      `The account groups read took ${Math.round(first.durationMs)} ms.`,
    ),
  );

  const sampleNote = groups.length > MAX_GROUPS ? ` (the first ${MAX_GROUPS} of ${groups.length} account groups)` : '';
  if (perGroup.every((entry) => entry.agents.ok)) {
    const down = perGroup.flatMap((entry) =>
      entry.agents.ok
        ? entry.agents.value
            .filter(
              (agent) => agent.enabled === false || (agent.agentState !== undefined && agent.agentState !== 'online'),
            )
            .map(
              (agent) =>
                `${agent.agentName} (${entry.group.accountGroupName}): ${agent.enabled === false ? 'disabled' : String(agent.agentState)}, ${ago(agent.lastSeen, now)}`,
            )
        : [],
    );
    checks.push(
      check(
        'enterprise-agents',
        'Enterprise agents offline or disabled',
        down.length ? 'warn' : 'pass',
        down.length
          ? `${down.length} enterprise agent${down.length === 1 ? ' is' : 's are'} offline or disabled${sampleNote}.`
          : `Every enterprise agent is online${sampleNote}.`,
        down,
      ),
    );
  } else
    checks.push(
      check(
        'enterprise-agents',
        'Enterprise agents offline or disabled',
        'unknown',
        'Unknown: the permission View agents is missing.',
      ),
    );

  if (endpoint.ok) {
    const silent = endpoint.value.filter(
      (agent) => !agent.lastSeen || now - Date.parse(agent.lastSeen) > ENDPOINT_SILENT_DAYS * DAY_MS,
    );
    checks.push(
      check(
        'endpoint-agents',
        `Endpoint agents not seen for ${ENDPOINT_SILENT_DAYS} days`,
        silent.length ? 'warn' : 'pass',
        `${silent.length} of ${endpoint.value.length} endpoint agents.`,
        silent.map((agent) => `${agent.name ?? agent.computerName ?? agent.id}: ${ago(agent.lastSeen, now)}`),
      ),
    );
  } else
    checks.push(
      check(
        'endpoint-agents',
        `Endpoint agents not seen for ${ENDPOINT_SILENT_DAYS} days`,
        'unknown',
        'Unknown: the permission View endpoint agents is missing.',
      ),
    );

  if (perGroup.every((entry) => entry.tests.ok)) {
    const disabled = perGroup.flatMap((entry) =>
      entry.tests.ok
        ? entry.tests.value
            .filter((test) => test.enabled === false)
            .map((test) => `${test.testName} (${entry.group.accountGroupName})`)
        : [],
    );
    checks.push(
      check(
        'disabled-tests',
        'Disabled tests',
        disabled.length ? 'warn' : 'pass',
        `${disabled.length} disabled test${disabled.length === 1 ? '' : 's'}${sampleNote}.`,
        disabled,
      ),
    );
  } else
    checks.push(check('disabled-tests', 'Disabled tests', 'unknown', 'Unknown: the permission View tests is missing.'));

  if (usage.ok) {
    const used = Number(usage.value.usage.cloudUnitsUsed ?? 0);
    const included = Number(usage.value.usage.quota?.cloudUnitsIncluded ?? 0);
    const share = included > 0 ? used / included : 0;
    checks.push(
      included > 0
        ? check(
            'quota',
            'Cloud units against the plan',
            share <= 0.8 ? 'pass' : share <= 1 ? 'warn' : 'fail',
            `${used.toLocaleString('en-US')} of ${included.toLocaleString('en-US')} units used (${Math.round(share * 100)}%).`,
          )
        : check('quota', 'Cloud units against the plan', 'unknown', 'The usage answer names no included units.'),
    );
  } else
    checks.push(
      check(
        'quota',
        'Cloud units against the plan',
        'unknown',
        'Unknown: the permission View usage and quotas is missing.',
      ),
    );

  return {
    id,
    generatedAt: new Date(now).toISOString(),
    identity: current.ok
      ? {
          name: current.value.name ?? '',
          email: current.value.email,
          isOrgAdmin,
          // Every account group the token sees, with its roles there or none, then any the user's roles name
          // that the token's list did not.
          roles: [
            ...groups.map(({ aid, accountGroupName }) => ({
              aid,
              accountGroupName,
              roles: roles.find((entry) => entry.aid === aid)?.roles ?? [],
            })),
            ...roles
              .filter((entry) => !groups.some((group) => group.aid === entry.aid))
              .map(({ aid, accountGroupName, roles: names }) => ({ aid, accountGroupName, roles: names })),
          ],
        }
      : null,
    organizations: [...new Set(groups.map((group) => group.organizationName))],
    accountGroups: groups.map(({ aid, accountGroupName, organizationName }) => ({
      aid,
      accountGroupName,
      organizationName,
    })),
    platform: { answerMs: Math.round(first.durationMs), rateLimit },
    permissions,
    tools,
    checks,
  };
}

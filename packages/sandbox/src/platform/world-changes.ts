import type { User } from './model.js';
import {
  PLANTED_CAUSE,
  PLANTED_FAILING_AGENTS,
  plantAgentOffline,
  plantTestFailing,
  RegressionError,
} from './simulation/regressions.js';
import { DAY } from './world-tables.js';
import type { World } from './world.js';

/**
 * Changes to a customer's world between two runs of a watch (decision 0031), as the customer's admins would make
 * them: a regression a health check finds, a fix it sees resolved, and configuration a backup's drift names; and
 * what the customer's monitoring measures moving (`agent-offline`, `test-failing`: simulation/regressions.ts).
 */
export const WORLD_CHANGES = [
  'inactive-user',
  'fix-inactive-user',
  'delete-test',
  'rename-rule',
  'agent-offline',
  'test-failing',
] as const;
export type WorldChange = (typeof WORLD_CHANGES)[number];

export interface WorldChangeRequest {
  change: WorldChange;
  organizationId: string;
  /** The account group it happens in; the organization's first one by default. */
  aid?: string;
}

export interface WorldChangeResult {
  change: WorldChange;
  organizationId: string;
  aid: string;
  /** The platform id of what was added, fixed, deleted or renamed. */
  id: string;
  /** What happened, in words ("user Wes Planted <...> added, never signed in"). */
  what: string;
}

export class WorldChangeError extends Error {}

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Applies one change to the world, now; throws WorldChangeError when the organization, the account group or the
 * thing to change is missing. Ids come from `nextId`, names are numbered so each planted one is distinct.
 */
export function applyWorldChange(
  world: World,
  request: WorldChangeRequest,
  now: number,
  nextId: () => string,
): WorldChangeResult {
  const organization = world.organizations.find((candidate) => candidate.orgId === request.organizationId);
  if (!organization) throw new WorldChangeError(`No organization ${request.organizationId} in the sandbox`);
  const group = world.accountGroups.find(
    (candidate) =>
      candidate.orgId === organization.orgId && (request.aid === undefined || candidate.aid === request.aid),
  );
  if (!group) throw new WorldChangeError(`No account group ${request.aid ?? ''} in ${organization.name}`);
  const done = (id: string, what: string): WorldChangeResult => ({
    change: request.change,
    organizationId: organization.orgId,
    aid: group.aid,
    id,
    what,
  });
  const inGroup = (user: User) => group.aid in user.roleIdsByAid;

  switch (request.change) {
    case 'inactive-user': {
      // Registered long ago and never signed in: the health check's inactive users find it.
      const number = world.users.filter((user) => user.email.startsWith('planted-')).length + 1;
      const roleId = world.users.find(inGroup)?.roleIdsByAid[group.aid]?.[0] ?? '3';
      const user: User = {
        uid: nextId(),
        orgId: organization.orgId,
        name: `Planted User ${number}`,
        email: `planted-${number}@${organization.slug}.example`,
        dateRegistered: iso(now - 400 * DAY),
        loginAid: group.aid,
        roleIdsByAid: { [group.aid]: [roleId] },
      };
      world.users.push(user);
      return done(user.uid, `user ${user.name} <${user.email}> added, never signed in`);
    }
    case 'fix-inactive-user': {
      // The longest-absent user of the group signs in now.
      const absent = world.users
        .filter((user) => user.orgId === organization.orgId && inGroup(user))
        .sort((a, b) => (a.lastLogin ?? '').localeCompare(b.lastLogin ?? ''))[0];
      if (!absent) throw new WorldChangeError(`No user in ${group.accountGroupName}`);
      absent.lastLogin = iso(now);
      return done(absent.uid, `user ${absent.name} <${absent.email}> signed in`);
    }
    case 'delete-test': {
      const index = world.tests.findIndex((test) => test.aid === group.aid);
      const [test] = index < 0 ? [] : world.tests.splice(index, 1);
      if (!test) throw new WorldChangeError(`No test in ${group.accountGroupName}`);
      // As the platform does: the rules, windows and tags that named it no longer do.
      for (const rule of world.alertRules) rule.testIds = rule.testIds.filter((id) => id !== test.testId);
      for (const window of world.suppressionWindows) window.testIds = window.testIds.filter((id) => id !== test.testId);
      for (const tag of world.tags) tag.assignments = tag.assignments.filter((assigned) => assigned.id !== test.testId);
      return done(test.testId, `${test.type} test '${test.testName}' deleted`);
    }
    case 'rename-rule': {
      const rule = world.alertRules.find((candidate) => candidate.aid === group.aid && !candidate.isDefault);
      if (!rule) throw new WorldChangeError(`No alert rule in ${group.accountGroupName}`);
      const before = rule.ruleName;
      rule.ruleName = `${before} (renamed)`;
      return done(rule.ruleId, `alert rule '${before}' renamed '${rule.ruleName}'`);
    }
    case 'agent-offline': {
      const agent = measured(() => plantAgentOffline(world, group, now));
      return done(agent.agentId, `enterprise agent '${agent.agentName}' offline`);
    }
    case 'test-failing': {
      const test = measured(() => plantTestFailing(world, group, now, nextId()));
      return done(
        test.testId,
        `${test.type} test '${test.testName}' failing from ${PLANTED_FAILING_AGENTS} of its ${test.agentIds.length} agents (${PLANTED_CAUSE})`,
      );
    }
  }
}

/** A measured regression, or why the group has nothing to plant it on. */
function measured<T>(plant: () => T): T {
  try {
    return plant();
  } catch (error) {
    if (error instanceof RegressionError) throw new WorldChangeError(error.message);
    throw error;
  }
}

import { conflictChoice, type TestTemplate } from '@ce/contract';
import type { PlatformSession } from '@ce/platform-client';
import { undoKind, type ChangeSetTools } from '../../core/change-sets/handlers.js';
import type { ChangeItemRow, ChangeSetRow, NewChangeItem } from '../../core/change-sets/repository.js';
import { AppError } from '../../core/errors.js';
import type { UsageService } from '../usage/usage.service.js';
import { BULK_ACTIONS, type ItemAction, type StoredPayload } from './bulk-actions.js';
import { storedInput } from './bulk-input.js';
import { createBody, nameKey, planCells, uniqueName } from './bulk-plan.js';
import { inventory } from './read.js';

/** One new item of `action`, its payload shaped as the action reads it back. */
function newItem<A extends ItemAction>(
  action: A,
  payload: StoredPayload<A>,
  item: Omit<NewChangeItem, 'action' | 'payload' | 'position'>,
): Omit<NewChangeItem, 'position'> {
  return { ...item, action, payload };
}

/**
 * The items of a run, decided once by its first worker: what each does on the platform, with what it
 * needs to be done exactly once (the ids a creation must never take for its own, the conflicts resolved).
 */
async function planRunItems(run: ChangeSetRow, session: PlatformSession): Promise<NewChangeItem[]> {
  const input = storedInput(run);
  const items: NewChangeItem[] = [];
  const add = (item: Omit<NewChangeItem, 'position'>) => items.push({ ...item, position: items.length });
  switch (input.kind) {
    case 'tests': {
      const found = await inventory(session, input.accountGroups, { tests: true, agents: true });
      const choice = conflictChoice(input);
      // Per group, the names taken (by its tests, then by this run's) and the ids of each name's tests.
      const taken = new Map(
        found.map((group) => [group.group.aid, new Set(group.tests.map((t) => nameKey(t.testName)))]),
      );
      const idsOf = (aid: string, name: string) =>
        (found.find((group) => group.group.aid === aid)?.tests ?? [])
          .filter((test) => nameKey(test.testName) === nameKey(name))
          .map((test) => test.testId);
      for (const cell of planCells(input.templates, found)) {
        const template: TestTemplate | undefined = input.templates[cell.templateIndex];
        if (!template) continue;
        const names = taken.get(cell.aid) ?? new Set<string>();
        const conflict = cell.action === 'exists';
        const testName = conflict && choice === 'rename' ? uniqueName(cell.testName, names) : cell.testName;
        names.add(nameKey(testName));
        const missing = cell.missingAgents.length ? `Not in this group: ${cell.missingAgents.join(', ')}` : null;
        const item = newItem(
          'create-test',
          {
            type: template.testType,
            body: { ...createBody(template, cell.agents), testName },
            knownIds: idsOf(cell.aid, testName),
          },
          {
            inputIndex: cell.templateIndex,
            aid: cell.aid,
            accountGroupName: cell.accountGroupName,
            subject: testName,
            note: conflict && testName !== cell.testName ? `Renamed: "${cell.testName}" is taken` : missing,
          },
        );
        if (conflict && choice === 'skip')
          add({ ...item, status: 'skipped', resultId: cell.existingTestId, note: 'Already exists' });
        else if (cell.action === 'blocked') add({ ...item, status: 'failed', error: cell.reason });
        else add(item);
      }
      break;
    }
    case 'undo-tests':
      throw new Error('an undo is planned by the engine');
    case 'agents':
      for (const agent of input.agents) {
        add(
          newItem(
            'delete-agent',
            { agentId: agent.agentId },
            {
              aid: agent.aid,
              accountGroupName: agent.accountGroupName,
              subject: agent.agentName,
              resultId: agent.agentId,
            },
          ),
        );
      }
      break;
    case 'labels':
      for (const target of input.targets) {
        add(
          newItem(
            'label-tests',
            { tag: input.tag, testIds: target.testIds },
            {
              aid: target.aid,
              accountGroupName: target.accountGroupName,
              subject: `${input.tag.key}: ${input.tag.value}`,
            },
          ),
        );
      }
      break;
    case 'users': {
      const existing = new Map((await session.users.list()).map((user) => [user.email.toLowerCase(), user.uid]));
      const [first] = input.accountGroups;
      if (!first) throw new AppError(400, 'no_account_groups', 'The run has no account group');
      for (const invitee of input.invitees) {
        const item = newItem(
          'invite-user',
          { ...invitee, roleId: input.roleId, aids: input.accountGroups.map((group) => group.aid) },
          {
            aid: first.aid,
            accountGroupName: input.accountGroups.map((group) => group.accountGroupName).join(', '),
            subject: invitee.email,
          },
        );
        const uid = existing.get(invitee.email);
        if (uid) add({ ...item, status: 'skipped', resultId: uid, note: 'Already a user of this organization' });
        else add(item);
      }
      break;
    }
  }
  return items;
}

/** Tests created count towards usage; an undo takes them back. */
async function countTests(usage: UsageService, run: ChangeSetRow, items: ChangeItemRow[]): Promise<void> {
  const done = items.filter((item) => item.status === 'done').length;
  if (done > 0)
    await usage.record({ tool: 'tests-created', userId: run.userId, quantity: run.kind === 'tests' ? done : -done });
}

/** The bulk tools on the change-set engine: their kinds of run and their actions. */
export function bulkChangeSets(usage: UsageService): ChangeSetTools {
  const plan = (run: ChangeSetRow, sessions: { source: PlatformSession }) => planRunItems(run, sessions.source);
  const finished = (run: ChangeSetRow, items: ChangeItemRow[]) => countTests(usage, run, items);
  return {
    kinds: {
      tests: { plan, finished },
      'undo-tests': { ...undoKind(() => BULK_ACTIONS), finished },
      agents: { plan },
      labels: { plan },
      users: { plan },
    },
    actions: BULK_ACTIONS,
  };
}

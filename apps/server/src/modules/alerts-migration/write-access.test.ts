import { describe, expect, it, vi } from 'vitest';
import { PlatformError, type PlatformSession } from '@ce/platform-client';
import { writeProblems, type PlannedWrite } from './write-access.js';

const EDIT_RULES = 'Edit alert rules';
const ROLES: Record<string, string[]> = {
  'org-admin': ['View alert rules', EDIT_RULES, 'Edit alert suppression windows'],
  'read-only': ['View alert rules'],
};

/** A token's session as the check reads it: its user's roles per group, each role's permissions, the probe. */
function session(options: { roles: Record<string, string[]>; hidden?: boolean; probe?: number }) {
  const refuse = (status: number) => Promise.reject(new PlatformError(status, `refused ${status}`));
  const fake = {
    users: {
      current: vi.fn(async () => ({
        uid: '1',
        email: 'auditor@example.com',
        name: 'Read-only Auditor',
        accountGroupRoles: Object.entries(options.roles).map(([aid, roleIds]) => ({
          accountGroup: { aid },
          roles: roleIds.map((roleId) => ({ roleId, name: roleId })),
        })),
      })),
    },
    roles: {
      get: vi.fn(async (roleId: string) =>
        options.hidden
          ? refuse(403)
          : { roleId, name: roleId, permissions: (ROLES[roleId] ?? []).map((label) => ({ label })) },
      ),
    },
    alertRules: { update: vi.fn(() => refuse(options.probe ?? 404)) },
    alertSuppressionWindows: { update: vi.fn(() => refuse(options.probe ?? 404)) },
  };
  return { fake, session: fake as unknown as PlatformSession };
}

const write = (token: PlatformSession, aid: string, permission = EDIT_RULES): PlannedWrite => ({
  session: token,
  token: 'The token',
  aid,
  accountGroupName: `Group ${aid}`,
  permission,
});

describe('whether a token may make the writes a plan makes', () => {
  it("reads the user's roles in each group once and names the permission a role does not give", async () => {
    const { fake, session: token } = session({ roles: { '1': ['org-admin'], '2': ['read-only'] } });
    const problems = await writeProblems([write(token, '1'), write(token, '2'), write(token, '2'), write(token, '1')]);
    expect(problems).toEqual([
      'The token cannot write into Group 2: its user (Read-only Auditor) lacks the "Edit alert rules" permission there.',
    ]);
    expect(fake.users.current).toHaveBeenCalledTimes(1);
    expect(fake.roles.get.mock.calls.map(([roleId]) => roleId).sort()).toEqual(['org-admin', 'read-only']);
    // Roles that answer need no probe.
    expect(fake.alertRules.update).not.toHaveBeenCalled();
  });

  it('asks the platform with a write that changes nothing when the roles are not shown, and says when it refuses', async () => {
    const refused = session({ roles: { '1': ['read-only'] }, hidden: true, probe: 403 });
    expect(
      await writeProblems([write(refused.session, '1'), write(refused.session, '1', 'Edit alert suppression windows')]),
    ).toEqual([
      'The token cannot write into Group 1: the platform refused a write that changes nothing (the "Edit alert rules" permission is needed).',
      'The token cannot write into Group 1: the platform refused a write that changes nothing (the "Edit alert suppression windows" permission is needed).',
    ]);
    // The probe: a PUT of an empty body to an id nothing has.
    expect(refused.fake.alertRules.update).toHaveBeenCalledWith('0', {}, '1');
    expect(refused.fake.alertSuppressionWindows.update).toHaveBeenCalledWith('0', {}, '1');

    for (const status of [400, 404]) {
      const allowed = session({ roles: {}, probe: status });
      expect(await writeProblems([write(allowed.session, '1')]), String(status)).toEqual([]);
    }
  });

  it('checks each token on its own (the source and another organization)', async () => {
    const source = session({ roles: { '1': ['org-admin'] } });
    const target = session({ roles: { '9': ['read-only'] } });
    const problems = await writeProblems([
      write(source.session, '1'),
      { ...write(target.session, '9'), token: "The target organization's token" },
    ]);
    expect(problems).toEqual([
      'The target organization\'s token cannot write into Group 9: its user (Read-only Auditor) lacks the "Edit alert rules" permission there.',
    ]);
  });
});

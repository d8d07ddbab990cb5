import { describe, expect, it } from 'vitest';
import { ChangesTally, isChange, personOf } from '../read-changes.js';
import { changesByPerson } from './changes-by-person.js';
import type { HealthInput } from './input.js';
import { agentOfflineNotifications, endpointAgentsLicensed } from './measured-agents.js';
import type { MeasuredAgent, MeasuredInput } from './measured-input.js';

const event = (user: string, words: string, date: string) => ({ user, event: words, date });
const refused = { ok: false as const, reason: 'not read' };

/** A health input with only the measured parts a test gives (the others unread). */
function inputOf(measured: Partial<MeasuredInput>): HealthInput {
  return {
    now: new Date('2026-03-08T00:00:00Z'),
    users: refused,
    tests: refused,
    rules: refused,
    alerts: refused,
    dashboards: refused,
    usage: refused,
    measured: {
      from: 0,
      to: 1,
      results: refused,
      agents: refused,
      ruleDetails: refused,
      agentNotificationRules: refused,
      endpoints: refused,
      units: refused,
      ...measured,
    },
  };
}

describe('who changed what', () => {
  it('sums the activity log and the test versions by person, however each list spells them', () => {
    const tally = new ChangesTally();
    tally.addEvent(event('Ana Anders (ana@acme.example)', 'Test updated.', '2026-03-02T10:00:00Z'));
    tally.addEvent(event('Ana Anders (ana@acme.example)', 'Test updated', '2026-03-03T10:00:00Z'));
    tally.addEvent(event('Ana Anders (ana@acme.example)', 'Alert rule updated', '2026-03-01T10:00:00Z'));
    tally.addVersion({ versionId: 'v', versionTimestamp: '2026-03-04T09:00:00Z', createdBy: 'ana@acme.example' });
    const other = new ChangesTally();
    other.addEvent(event('Provisioning bot', 'Dashboard created', '2026-03-05T10:00:00Z'));
    tally.merge(other);
    expect(tally.changes()).toEqual([
      {
        person: 'ana@acme.example',
        events: 3,
        testVersions: 1,
        what: [
          { event: 'Test updated', count: 2 },
          { event: 'Alert rule updated', count: 1 },
        ],
        throughToolkit: 0,
        lastAt: '2026-03-04T09:00:00Z',
      },
      {
        person: 'Provisioning bot',
        events: 1,
        testVersions: 0,
        what: [{ event: 'Dashboard created', count: 1 }],
        throughToolkit: 0,
        lastAt: '2026-03-05T10:00:00Z',
      },
    ]);
    expect(personOf(undefined)).toBe('someone the platform does not name');
  });

  it('counts changes, not sign-ins or views', () => {
    for (const words of ['Test created', 'Tag assigned', 'User invited', 'Alert rule deleted.'])
      expect(isChange(event('u', words, '')), words).toBe(true);
    for (const words of ['Login', 'Login failed.', 'Report viewed'])
      expect(isChange(event('u', words, '')), words).toBe(false);
  });

  it('is informational: weight 0, passes when read with the people as evidence, unknown with the reason', () => {
    const tally = new ChangesTally();
    tally.addEvent(event('Ana Anders (ana@acme.example)', 'Test updated', '2026-03-02T10:00:00Z'));
    tally.addVersion({ versionId: 'v', versionTimestamp: '2026-03-02T10:00:00Z', createdBy: 'ana@acme.example' });
    const check = changesByPerson(inputOf({ changes: { ok: true, value: tally.changes() } }));
    expect(check).toMatchObject({ status: 'pass', weight: 0 });
    expect(check.items).toEqual([
      {
        type: 'user',
        id: 'ana@acme.example',
        name: 'ana@acme.example',
        detail: '1 change in the activity log (Test updated 1), 1 test version; last on 2026-03-02',
      },
    ]);
    const denied = changesByPerson(inputOf({ changes: { ok: false, reason: 'permission needed: View activity log' } }));
    expect(denied).toMatchObject({ status: 'unknown', reason: 'permission needed: View activity log', items: [] });
  });
});

describe('agent-offline notification coverage', () => {
  const agent = (agentId: string, accountGroup: string): MeasuredAgent => ({
    agentId,
    agentName: `ea-${agentId}`,
    agentType: 'enterprise',
    errors: [],
    testIds: [],
    accountGroup,
  });
  const rule = (accountGroup: string, expression: string, agentIds?: string[]) => ({
    ruleId: `${accountGroup}-${expression}`,
    ruleName: 'Default Agent Offline Notification',
    expression,
    accountGroup,
    ...(agentIds ? { agentIds } : {}),
  });

  it('names the agents no rule on their last contact is on, and not those one is on', () => {
    const check = agentOfflineNotifications(
      inputOf({
        agents: { ok: true, value: [agent('1', 'A'), agent('2', 'A'), agent('3', 'B'), agent('4', 'C')] },
        agentNotificationRules: {
          ok: true,
          value: [
            rule('A', '((lastContact >= 30 min))', ['1']),
            rule('B', '((cpuLoad >= 90))', ['3']),
            // A rule whose agents were not read covers its group.
            rule('C', '((lastSeen >= 10 minutes))'),
          ],
        },
      }),
    );
    expect(check.status).toBe('warn');
    expect(check.items.map((item) => [item.id, item.detail])).toEqual([
      ['2', "on none of its account group's agent notification rules on their last contact"],
      ['3', 'its account group has no agent notification rule on their last contact'],
    ]);
  });
});

describe('endpoint agents', () => {
  it('say their versions beside the licences, passing or not', () => {
    const check = endpointAgentsLicensed(
      inputOf({
        endpoints: {
          ok: true,
          value: {
            inUse: 150,
            licensed: 200,
            versions: [
              { version: '1.204.0', agents: 100 },
              { version: '1.198.0', agents: 50 },
            ],
          },
        },
      }),
    );
    expect(check.status).toBe('pass');
    expect(check.items[0]?.detail).toBe(
      '150 in use of 200 licensed (75%); versions in the account groups read: 100 on 1.204.0, 50 on 1.198.0',
    );
  });
});

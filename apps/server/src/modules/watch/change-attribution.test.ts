import { describe, expect, it } from 'vitest';
import {
  actorWords,
  attributeLine,
  auditKind,
  auditUser,
  type AuditWrite,
  type JournalWrite,
} from './change-attribution.js';

const at = (iso: string) => new Date(iso);
const window = { since: at('2026-12-04T07:00:00Z'), until: at('2026-12-05T07:00:00Z') };
const line = { accountGroupName: 'Acme - Production', kind: 'dashboard', name: 'Expenses' };
const ours: JournalWrite = {
  accountGroupName: 'Acme - Production',
  kind: 'dashboard',
  names: ['Expenses'],
  at: at('2026-12-04T16:55:00Z'),
  person: { name: 'Taylor TAM', email: 'tam@demo.local' },
  tool: 'dashboard push',
  path: '/home/tools/dashboards',
};
/** Our write is in the platform's log too, as the token's user's. */
const logged = (iso: string, names = ['Expenses']): AuditWrite => ({
  accountGroupName: 'Acme - Production',
  kinds: ['dashboard'],
  names,
  at: at(iso),
  user: 'jane@acme.example',
});

describe('who made a change a watch found', () => {
  it('is us when our journal wrote that object then, though the audit log names the token’s user too', () => {
    const actor = attributeLine(line, [ours], [logged('2026-12-04T16:55:01Z')], window);
    expect(actorWords(actor)).toBe('by us (Taylor TAM, dashboard push, 4 Dec)');
  });

  it('is the customer when only the audit log names it, or their write came after ours', () => {
    expect(actorWords(attributeLine(line, [], [logged('2026-12-04T10:00:00Z')], window))).toBe(
      "by the customer (jane@acme.example, per the platform's audit log)",
    );
    expect(attributeLine(line, [ours], [logged('2026-12-04T18:00:00Z')], window)).toMatchObject({ by: 'customer' });
  });

  it('is unknown outside the window, in another group, or of another object', () => {
    expect(attributeLine(line, [{ ...ours, at: at('2026-12-01T10:00:00Z') }], [], window)).toEqual({ by: 'unknown' });
    expect(attributeLine(line, [{ ...ours, accountGroupName: 'Acme - Lab' }], [], window)).toEqual({ by: 'unknown' });
    expect(attributeLine(line, [], [logged('2026-12-04T10:00:00Z', ['Payroll'])], window)).toEqual({ by: 'unknown' });
    expect(actorWords({ by: 'unknown' })).toBe('by unknown');
  });

  it('matches a renamed item by either of its names', () => {
    const renamed = { ...line, kind: 'alert-rule', name: 'Payroll (renamed)', previousName: 'Payroll' };
    const event = { ...logged('2026-12-04T10:00:00Z', ['Payroll']), kinds: ['alert-rule'] };
    expect(attributeLine(renamed, [], [event], window)).toMatchObject({ by: 'customer' });
  });

  it("reads the platform's words: the event's kind and the user's address", () => {
    expect(auditKind('Alert rule updated.')).toEqual(['alert-rule']);
    expect(auditKind('Alert suppression window deleted')).toEqual(['suppression-window']);
    expect(auditKind('Login')).toBeNull();
    expect(auditUser('Jane Doe (jane@acme.example)')).toBe('jane@acme.example');
    expect(auditUser('API')).toBe('API');
  });

  it("says the day of ours in the owner's time zone", () => {
    const late = attributeLine(line, [{ ...ours, at: at('2026-12-04T23:30:00Z') }], [], window);
    expect(actorWords(late, 'Europe/Paris')).toBe('by us (Taylor TAM, dashboard push, 5 Dec)');
  });
});

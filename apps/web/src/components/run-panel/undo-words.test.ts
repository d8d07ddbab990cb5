import { describe, expect, it } from 'vitest';
import type { ChangeSetItem } from '@ce/contract';
import { undoWords } from './undo-words';

const item = (action: string, accountGroupName: string, status: ChangeSetItem['status'] = 'done'): ChangeSetItem => ({
  id: `${action}-${accountGroupName}-${Math.random()}`,
  position: 0,
  phase: 0,
  action,
  aid: accountGroupName,
  accountGroupName,
  subject: 'x',
  status,
  resultId: status === 'done' ? '1' : null,
  note: null,
  error: null,
});

describe('undoWords', () => {
  it('says how many items the undo deletes, puts back and brings back, and where', () => {
    const items = [
      ...Array.from({ length: 6 }, () => item('create-test', 'Acme - Staging')),
      item('restore-update', 'Acme - EMEA'),
      item('restore-update', 'Acme - EMEA'),
      item('delete-rule', 'Acme - EMEA'),
      item('create-test', 'Acme - Staging', 'failed'),
    ];
    expect(undoWords(items, 'test')).toBe(
      'This deletes the 6 tests it created in Acme - Staging, puts back the 2 tests it changed in Acme - EMEA and brings back the 1 test it deleted from Acme - EMEA. Nothing else changes.',
    );
  });

  it('counts each kind of item in its own words: rules and windows of a migration', () => {
    const noun = (done: ChangeSetItem) => (done.action.endsWith('-window') ? 'maintenance window' : 'alert rule');
    const rules = [item('create-rule', 'Acme - Data Centers'), item('create-rule', 'Acme - Data Centers')];
    expect(undoWords(rules, noun)).toBe(
      'This deletes the 2 alert rules it created in Acme - Data Centers. Nothing else changes.',
    );
    expect(undoWords([item('create-rule', 'Acme - EMEA'), item('create-window', 'Acme - EMEA')], noun)).toBe(
      'This deletes the 1 alert rule and 1 maintenance window it created in Acme - EMEA. Nothing else changes.',
    );
  });

  it('says when nothing would be put back', () => {
    expect(undoWords([item('create-test', 'A', 'failed')])).toBe(
      'This run changed nothing that an undo would put back.',
    );
  });
});

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

  it('says when nothing would be put back', () => {
    expect(undoWords([item('create-test', 'A', 'failed')])).toBe(
      'This run changed nothing that an undo would put back.',
    );
  });
});

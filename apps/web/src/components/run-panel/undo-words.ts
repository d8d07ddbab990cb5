import type { ChangeSetItem } from '@ce/contract';

const groupsOf = (items: ChangeSetItem[]) => [...new Set(items.map((item) => item.accountGroupName))].join(', ');
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const listed = (parts: string[]) =>
  parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;

/** What one item is, in the singular: one word for every item ('test'), or one per item ('alert rule'). */
export type UndoNoun = string | ((item: ChangeSetItem) => string);

/** How many of each: "6 tests", "1 alert rule and 1 maintenance window". */
function counted(items: ChangeSetItem[], noun: UndoNoun): string {
  const byNoun = new Map<string, number>();
  for (const item of items) {
    const word = typeof noun === 'string' ? noun : noun(item);
    byNoun.set(word, (byNoun.get(word) ?? 0) + 1);
  }
  return listed([...byNoun].map(([word, n]) => count(n, word)));
}

/**
 * What undoing a run does, from what it did: "This deletes the 6 items it created in Acme - Staging, puts back the
 * 2 it changed in Acme - EMEA and brings back the 1 it deleted from Acme - EMEA. Nothing else changes."
 */
export function undoWords(items: ChangeSetItem[], noun: UndoNoun = 'item'): string {
  const done = items.filter((item) => item.status === 'done' && item.resultId !== null);
  const of = (word: string) => done.filter((item) => item.action.includes(word));
  const [made, changed, removed] = [of('create'), of('update'), of('delete')];
  const parts = [
    made.length > 0 && `deletes the ${counted(made, noun)} it created in ${groupsOf(made)}`,
    changed.length > 0 && `puts back the ${counted(changed, noun)} it changed in ${groupsOf(changed)}`,
    removed.length > 0 && `brings back the ${counted(removed, noun)} it deleted from ${groupsOf(removed)}`,
  ].filter((part): part is string => typeof part === 'string');
  if (parts.length === 0) return 'This run changed nothing that an undo would put back.';
  return `This ${listed(parts)}. Nothing else changes.`;
}

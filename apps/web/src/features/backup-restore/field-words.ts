/** A difference in words: shared with the server, whose watch messages say drift the same way. */
export { fieldWords, type FieldDifference } from '@ce/contract';

/** A backup's counts in words, kinds with none left out: "3 tags, 13 tests, 1 dashboard, 5 alert rules". */
export function countsInWords(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${count} ${kind.replaceAll('-', ' ')}${count === 1 ? '' : 's'}`)
    .join(', ');
}

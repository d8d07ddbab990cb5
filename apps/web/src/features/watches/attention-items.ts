/**
 * A check's items in words: those listed under it, and those it names that are listed once under "Named by several
 * checks" ("5 items, 2 of them named by several checks"), so a failing check never reads "0 items".
 */
export function itemsOf(
  group: { checkId: string; items: readonly unknown[] },
  people: readonly { checks: readonly { checkId: string }[] }[],
): string {
  const elsewhere = people.filter((person) => person.checks.some((check) => check.checkId === group.checkId)).length;
  const total = group.items.length + elsewhere;
  const words = `${total} item${total === 1 ? '' : 's'}`;
  if (elsewhere === 0) return words;
  return `${words}, ${elsewhere === total ? (total === 1 ? 'named' : 'all named') : `${elsewhere} of them named`} by several checks`;
}

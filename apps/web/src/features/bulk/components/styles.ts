/** Button looks shared by the bulk tools. */
export const primaryButton =
  'rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60';
export const secondaryButton = 'rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-50 disabled:opacity-60';
export const smallButton = 'rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50';

/** A copy of `set` with `value` added if it was absent, removed if it was present. */
export function toggled<T>(set: ReadonlySet<T>, value: T): Set<T> {
  const next = new Set(set);
  if (next.has(value)) next.delete(value);
  else next.add(value);
  return next;
}

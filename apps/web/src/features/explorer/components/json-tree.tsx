const SHOWN_ITEMS = 200;

/** A JSON value as a tree: objects and lists fold (the first two levels open), long lists say how many more. */
export function JsonTree({ value, name, depth = 0 }: { value: unknown; name?: string; depth?: number }) {
  const label = name === undefined ? null : <span className="text-sky-800">{name}: </span>;
  if (value === null || typeof value !== 'object')
    return (
      <div className="pl-4">
        {label}
        <span className={typeof value === 'string' ? 'text-emerald-800' : 'text-amber-800'}>
          {JSON.stringify(value)}
        </span>
      </div>
    );
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <details open={depth < 2} className="pl-4">
      {/* At least 24 px high: a fold is a target, and the folds are stacked (WCAG 2.2 target size). */}
      <summary className="min-h-6 cursor-pointer leading-6">
        {label}
        <span className="text-slate-500">{summary}</span>
      </summary>
      {entries.slice(0, SHOWN_ITEMS).map(([key, item]) => (
        <JsonTree key={key} name={key} value={item} depth={depth + 1} />
      ))}
      {entries.length > SHOWN_ITEMS && (
        <div className="pl-4 text-slate-500">… {entries.length - SHOWN_ITEMS} more (export to see all)</div>
      )}
    </details>
  );
}

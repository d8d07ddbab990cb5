import { fieldWords, type FieldDifference } from '../field-words';

/**
 * Each difference on its own line, in words and whole; the values as they are (`raw`, by default the same
 * differences), one click away.
 */
export function FieldList({ fields, raw = fields }: { fields: FieldDifference[]; raw?: FieldDifference[] }) {
  return (
    <span className="grid min-w-0 gap-0.5 text-xs text-slate-600">
      {fields.map((field) => (
        <span key={field.path} className="min-w-0 [overflow-wrap:anywhere]">
          {fieldWords(field)}
        </span>
      ))}
      <details className="text-slate-500">
        <summary className="cursor-pointer">Raw JSON</summary>
        <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 whitespace-pre-wrap break-all">
          {JSON.stringify(raw, null, 2)}
        </pre>
      </details>
    </span>
  );
}

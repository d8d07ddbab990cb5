import { fieldWords, type FieldDifference } from '../field-words';

/** Each difference on its own line, in words and whole; the values as they are, one click away. */
export function FieldList({ fields }: { fields: FieldDifference[] }) {
  return (
    <span className="grid gap-0.5 text-xs text-slate-600">
      {fields.map((field) => (
        <span key={field.path} className="break-words">
          {fieldWords(field)}
        </span>
      ))}
      <details className="text-slate-500">
        <summary className="cursor-pointer">Raw JSON</summary>
        <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 whitespace-pre-wrap break-all">
          {JSON.stringify(fields, null, 2)}
        </pre>
      </details>
    </span>
  );
}

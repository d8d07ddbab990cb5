import { useId, useState } from 'react';
import { RECENT_TOKENS } from '@ce/contract';
import { recentTokens, tokenChipLabel, type TokenList } from '../recent-tokens';

export interface TokenFieldProps {
  list: TokenList;
  value: string;
  onChange: (token: string) => void;
  label?: string;
  error?: string | null;
}

/**
 * The customer's OAuth token in a hidden-text field, with up to 3 recently used tokens as chips
 * (their last 8 characters) that fill the field.
 */
export function TokenField({ list, value, onChange, label = 'OAuth Token', error }: TokenFieldProps) {
  const id = useId();
  const [recent] = useState(() => recentTokens(list));
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="password"
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder="Paste the Org Admin's API token"
        aria-invalid={error ? true : undefined}
        className="w-full rounded-md border border-slate-300 px-3 py-2 font-mono"
      />
      {error && <p className="text-sm text-red-700">{error}</p>}
      {recent.length > 0 && (
        <div role="group" className="flex flex-wrap items-center gap-2" aria-label="Recent tokens">
          <span className="text-xs text-slate-500">Recent:</span>
          {recent.slice(0, RECENT_TOKENS.chips).map((token) => (
            <button
              key={token}
              type="button"
              onClick={() => onChange(token)}
              className="rounded-full border border-slate-300 bg-slate-50 px-3 py-0.5 font-mono text-xs hover:bg-slate-100"
            >
              {tokenChipLabel(token)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

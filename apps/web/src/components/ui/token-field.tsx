import { useState, type ReactNode } from 'react';
import { RECENT_TOKENS } from '@ce/contract';
import { recentTokens, tokenChipLabel, type TokenList } from '../../lib/recent-tokens';
import { TextInput, type TextInputProps } from './field';

export interface TokenFieldProps extends Omit<TextInputProps, 'type' | 'label'> {
  label?: ReactNode;
  /** The signed-in user's recently used tokens of a list, as chips (their last 8 characters) that fill the field. */
  recent?: { list: TokenList; pick(token: string): void };
}

/**
 * A customer's API token: hidden text, never completed or spell-checked by the browser, in a Field (label,
 * hint, error); with `recent`, up to 3 recent tokens of the user as chips. Takes react-hook-form's
 * `register(...)` or `value` and `onChange`, as a TextInput does.
 */
export function TokenField({ label = 'OAuth token', recent, className = '', ...input }: TokenFieldProps) {
  const [chips] = useState(() => (recent ? recentTokens(recent.list).slice(0, RECENT_TOKENS.chips) : []));
  return (
    <div className="space-y-2">
      <TextInput
        label={label}
        type="password"
        autoComplete="off"
        spellCheck={false}
        className={`font-mono ${className}`}
        {...input}
      />
      {recent && chips.length > 0 && (
        <div role="group" className="flex flex-wrap items-center gap-2" aria-label="Recent tokens">
          <span className="text-xs text-slate-500">Recent:</span>
          {chips.map((token) => (
            <button
              key={token}
              type="button"
              onClick={() => recent.pick(token)}
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

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { RECENT_TOKENS } from '@ce/contract';
import { customerLabel, useCustomers } from '../../lib/customer';
import { recentTokens, tokenChipLabel, type TokenList } from '../../lib/recent-tokens';
import { Button } from './button';
import { TextInput, type TextInputProps } from './field';

export interface TokenFieldProps extends Omit<TextInputProps, 'type' | 'label'> {
  label?: ReactNode;
  /** The signed-in user's recently used tokens of a list, as chips (their last 8 characters) that fill the field. */
  recent?: { list: TokenList; pick(token: string): void };
  /** Opens with the customer chosen in the navbar (default); false for a field that chooses one. */
  customer?: boolean;
}

/**
 * Types `value` into the input as a person would: the input event reaches whatever owns the field (react-hook-form's
 * `register`, or a tool's own `onChange`), so one field serves both.
 */
function type(input: HTMLInputElement | null, value: string) {
  if (!input || input.value === value) return;
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * A customer's API token: hidden text, never completed or spell-checked by the browser, in a Field (label,
 * hint, error); with `recent`, up to 3 recent tokens of the user as chips. Takes react-hook-form's
 * `register(...)` or `value` and `onChange`, as a TextInput does. With a customer chosen in the navbar, an empty
 * field takes its token and shows "Acme Corporation · token …b755f" with "Use another token".
 */
export function TokenField({
  label = 'OAuth token',
  recent,
  customer = true,
  className = '',
  ...input
}: TokenFieldProps) {
  const [firstChips] = useState(() => (recent ? recentTokens(recent.list).slice(0, RECENT_TOKENS.chips) : []));
  // Read again whenever the customers change (useCustomers): a token forgotten or refused since is offered no more.
  const { current } = useCustomers();
  const kept = new Set(recent ? recentTokens(recent.list) : []);
  const chips = firstChips.filter((token) => kept.has(token));
  const chosen = customer ? current : null;
  // The field's own box: the input is found in it (its ref stays its owner's: react-hook-form's register passes one).
  const box = useRef<HTMLDivElement>(null);
  const fieldIn = () => box.current?.querySelector('input') ?? null;
  // Whether the field holds the chosen customer's token (until "Use another token").
  const [usingCustomer, setUsingCustomer] = useState(true);

  // While the field stands for the chosen customer, it holds its token (the new one after a switch).
  useEffect(() => {
    if (chosen && usingCustomer) type(fieldIn(), chosen.token);
  }, [chosen, usingCustomer]);

  const showsCustomer = chosen !== null && usingCustomer;
  const useAnother = () => {
    setUsingCustomer(false);
    type(fieldIn(), '');
    // The field shows again on the next render; focus goes there, where the person pastes.
    requestAnimationFrame(() => fieldIn()?.focus());
  };

  return (
    <div ref={box} className="space-y-2">
      {showsCustomer && (
        <div className="space-y-1" data-testid="customer-token">
          <p className="text-sm font-medium">{label}</p>
          <div className="flex flex-wrap items-center gap-2 rounded-md border border-slate-300 bg-slate-50 px-3 py-1.5 text-sm">
            <span className="min-w-0 break-words">{customerLabel(chosen)}</span>
            <Button size="sm" variant="link" className="ml-auto" onClick={useAnother}>
              Use another token
            </Button>
          </div>
        </div>
      )}
      <div hidden={showsCustomer}>
        <TextInput
          label={label}
          type="password"
          autoComplete="off"
          spellCheck={false}
          className={`font-mono ${className}`}
          {...input}
        />
      </div>
      {!showsCustomer && recent && chips.length > 0 && (
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

import { useState, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { TokenField } from '../ui/token-field';
import type { TokenList } from '../../lib/recent-tokens';

/** A customer token an undo needs: the one the page still holds, else asked for in the confirmation. */
export interface UndoToken {
  label: string;
  /** The token the page holds from the session that started the run ('' when it holds none). */
  known: string;
  /** The user's recent tokens of this list, as chips, when the token is asked for. */
  recent?: TokenList;
}

export interface UndoRunProps {
  /** The button that opens the confirmation, and the confirmation's title. */
  label: string;
  /** What the undo does, said in the confirmation. */
  description: ReactNode;
  /** The confirmation's button that starts the undo. */
  confirmLabel: string;
  /** What that button says and its spinner announces while the undo starts. */
  pendingText?: string;
  busyLabel: string;
  tokens: UndoToken[];
  pending: boolean;
  /** Looks of the opening button (bulk's outlined red, the others' danger). */
  variant?: 'danger' | 'outline';
  /** Starts the undo with the tokens (trimmed, in the order given); `done` closes the confirmation. */
  onConfirm: (tokens: string[], done: () => void) => void;
}

/**
 * Undo of a writing tool's run: a button, then a confirmation that says what the undo does and asks for the
 * tokens the page no longer holds. Cancel is where it opens, and closes it having done nothing.
 */
export function UndoRun({
  label,
  description,
  confirmLabel,
  pendingText,
  busyLabel,
  tokens,
  pending,
  variant = 'danger',
  onConfirm,
}: UndoRunProps) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState<string[]>(() => tokens.map((token) => token.known));
  const values = typed.map((value) => value.trim());
  const ready = values.every(Boolean);
  const close = () => setOpen(false);
  const type = (index: number, value: string) =>
    setTyped((previous) => previous.map((old, at) => (at === index ? value : old)));
  return (
    <>
      {variant === 'danger' ? (
        <Button variant="danger" onClick={() => setOpen(true)}>
          {label}
        </Button>
      ) : (
        <Button onClick={() => setOpen(true)} className="border-red-300 font-medium text-red-700 hover:bg-red-50">
          {label}
        </Button>
      )}
      <Dialog
        title={label}
        isOpen={open}
        onClose={close}
        footer={
          <>
            <Button data-autofocus onClick={close}>
              Cancel
            </Button>
            <Button
              variant="danger"
              onClick={() => ready && onConfirm(values, close)}
              disabled={!ready}
              busy={pending}
              busyLabel={busyLabel}
            >
              {pending && pendingText ? pendingText : confirmLabel}
            </Button>
          </>
        }
      >
        <div className="space-y-3">
          <p>{description}</p>
          {tokens.map(
            (token, index) =>
              !token.known && (
                <TokenField
                  key={token.label}
                  label={token.label}
                  placeholder="Paste the Org Admin's API token"
                  recent={token.recent && { list: token.recent, pick: (value) => type(index, value) }}
                  value={typed[index] ?? ''}
                  onChange={(event) => type(index, event.target.value)}
                  // The run's own organization may be the chosen customer; a second organization's is not.
                  customer={index === 0}
                />
              ),
          )}
        </div>
      </Dialog>
    </>
  );
}

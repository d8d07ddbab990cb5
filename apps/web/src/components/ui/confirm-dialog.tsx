import { useState, type ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

/** What a destructive action asks first: its title names what happens; Cancel is where the dialog opens. */
export interface Confirmation {
  title: string;
  /** Words (a paragraph), or paragraphs of its own. */
  body: ReactNode;
  confirm: string;
  busy: string;
  run: () => Promise<unknown>;
}

export function ConfirmDialog({
  confirmation,
  busy,
  onCancel,
  onConfirm,
}: {
  confirmation: Confirmation | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: (confirmation: Confirmation) => void;
}) {
  return (
    <Dialog
      title={confirmation?.title ?? ''}
      isOpen={confirmation !== null}
      onClose={onCancel}
      width="max-w-lg"
      footer={
        <>
          <Button data-autofocus onClick={onCancel}>
            Cancel
          </Button>
          <Button
            variant="danger"
            busy={busy}
            busyLabel={confirmation?.busy ?? ''}
            onClick={() => confirmation && onConfirm(confirmation)}
          >
            {confirmation?.confirm}
          </Button>
        </>
      }
    >
      {typeof confirmation?.body === 'string' ? <p>{confirmation.body}</p> : confirmation?.body}
    </Dialog>
  );
}

/**
 * A confirmation to ask (`ask`), and its dialog to render: Confirm runs it, busy until it settles, and closes it when
 * it succeeds; when it fails the dialog stays open (the query client's error toast says why).
 */
export function useConfirmation() {
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async (chosen: Confirmation) => {
    setBusy(true);
    try {
      await chosen.run();
      setConfirmation(null);
    } catch {
      // Said by the query client's error toast.
    } finally {
      setBusy(false);
    }
  };
  const dialog = (
    <ConfirmDialog
      confirmation={confirmation}
      busy={busy}
      onCancel={() => setConfirmation(null)}
      onConfirm={(chosen) => void confirm(chosen)}
    />
  );
  return { ask: setConfirmation, dialog };
}

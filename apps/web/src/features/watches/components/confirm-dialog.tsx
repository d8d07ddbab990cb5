import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';

/** What a destructive action asks first: its title names what happens; Cancel is where the dialog opens. */
export interface Confirmation {
  title: string;
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
      <p>{confirmation?.body}</p>
    </Dialog>
  );
}

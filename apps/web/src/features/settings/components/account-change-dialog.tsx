import type { Role, UserAccount } from '@ce/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';

/** A change of an account that takes something from its user: disabling it, or giving it another role. */
export type AccountChange = { user: UserAccount } & ({ kind: 'disable' } | { kind: 'role'; role: Role });

const words = (change: AccountChange) =>
  change.kind === 'disable'
    ? {
        title: `Disable ${change.user.email}?`,
        body: 'They are signed out everywhere and cannot sign in until an account is enabled again; their personal API tokens stop working, and their watches stop with their stored customer tokens erased.',
        confirm: 'Disable',
        busy: 'Disabling',
      }
    : {
        title: `Make ${change.user.email} ${change.role}?`,
        body: `From their next request they may do only what ${change.role} may do (now ${change.user.role}); personal API tokens and watches that need more stop.`,
        confirm: 'Change role',
        busy: 'Changing',
      };

/** Asks before an account change takes effect, naming it; Cancel is where the dialog opens. */
export function AccountChangeDialog({
  change,
  busy,
  onCancel,
  onConfirm,
}: {
  change: AccountChange | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: (change: AccountChange) => void;
}) {
  const confirmation = change ? { ...words(change), run: async () => onConfirm(change) } : null;
  return (
    <ConfirmDialog
      confirmation={confirmation}
      busy={busy}
      onCancel={onCancel}
      onConfirm={(chosen) => void chosen.run()}
    />
  );
}

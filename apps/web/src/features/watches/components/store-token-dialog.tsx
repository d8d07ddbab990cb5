import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { WATCH_DEFAULTS, type Watch } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextInput } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { TokenField } from '../../../components/ui/token-field';
import { useStoreWatchToken } from '../api/store-watch-token';
import { consentFields, tokenField } from '../watch-form-fields';

const tokenForm = z.object({ token: tokenField, ...consentFields });
type TokenForm = z.input<typeof tokenForm>;

/** A new token for a watch whose token went (revoked, expired, refused), with a new consent: the watch resumes. */
export function StoreTokenDialog({ watch, isOpen, onClose }: { watch: Watch; isOpen: boolean; onClose: () => void }) {
  const store = useStoreWatchToken();
  const form = useForm<TokenForm, unknown, z.output<typeof tokenForm>>({
    resolver: zodResolver(tokenForm),
    defaultValues: { token: '', contactName: '', contactEmail: '', days: String(WATCH_DEFAULTS.tokenMaxDays) },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit(async ({ token, ...consent }) => {
    const stored = await store.mutateAsync({ id: watch.id, token, consent }).catch(() => null);
    if (!stored) return;
    toast.success(`Token stored for ${watch.organizationName}: the watch is ${stored.status}.`);
    form.reset();
    onClose();
  });
  return (
    <Dialog
      title={`Store a new token for ${watch.organizationName}`}
      isOpen={isOpen}
      onClose={onClose}
      width="max-w-lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} busy={store.isPending} busyLabel="Storing">
            Store token
          </Button>
        </>
      }
    >
      <form className="space-y-3" onSubmit={(event) => void submit(event)} noValidate>
        <TokenField label="Org Admin token" {...form.register('token')} error={errors.token?.message} />
        <p className="text-sm text-slate-600">
          Kept sealed with the customer’s consent, never shown again (at most {WATCH_DEFAULTS.tokenMaxDays} days unless
          your installation says otherwise).
        </p>
        <TextInput label="Approved by (name)" {...form.register('contactName')} error={errors.contactName?.message} />
        <TextInput
          label="Their email"
          type="email"
          {...form.register('contactEmail')}
          error={errors.contactEmail?.message}
        />
        <TextInput label="For (days)" inputMode="numeric" {...form.register('days')} error={errors.days?.message} />
      </form>
    </Dialog>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { rerunReportInputSchema, type ReportRequest } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast-store';
import { useRerunReport } from '../api/rerun-report';
import { TokenField } from '../../../components/ui/token-field';
import { apiErrorText } from '../../../lib/error-toasts';

/** The same report again: the token is never kept, so it is pasted again. */
export function RerunForm({ report, onDone }: { report: ReportRequest; onDone: () => void }) {
  const rerun = useRerunReport({ errorMessage: (error) => apiErrorText(error, 'Could not run the report again') });
  const form = useForm<{ token: string }>({
    resolver: zodResolver(rerunReportInputSchema),
    defaultValues: { token: '' },
  });
  const submit = form.handleSubmit(({ token }) =>
    rerun.mutate(
      { id: report.id, token },
      {
        onSuccess: () => {
          toast.success('Report Requested Successfully');
          onDone();
        },
      },
    ),
  );
  return (
    <form className="mt-2 flex items-start gap-2" onSubmit={submit} noValidate>
      <TokenField
        label={<span className="sr-only">OAuth token for the new run</span>}
        placeholder="Paste the OAuth token again"
        fieldClassName="flex-1"
        className="text-sm"
        error={form.formState.errors.token?.message}
        {...form.register('token')}
      />
      <Button type="submit" variant="primary" size="sm" className="mt-1" busy={rerun.isPending} busyLabel="Requesting">
        Run
      </Button>
    </form>
  );
}

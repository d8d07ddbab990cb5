import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { diagnoseRequestSchema, sendDiagnosticSchema, type CheckStatus, type DiagnosticReport } from '@ce/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';
import { TextInput } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { diagnosticDownloadUrl, useSendDiagnostic } from '../api/send-diagnostic';
import { useRunDiagnostic } from '../api/run-diagnostic';
import { SHOWN_IN_PLACE } from '../../../lib/error-toasts';
import { TokenField } from '../../../components/ui/token-field';

type DiagnoseRequest = z.input<typeof diagnoseRequestSchema>;
type SendDiagnostic = z.input<typeof sendDiagnosticSchema>;

const TONES: Record<CheckStatus, BadgeTone> = { pass: 'success', warn: 'warning', fail: 'danger', unknown: 'neutral' };
type Tool = DiagnosticReport['tools'][number];
type Permission = DiagnosticReport['permissions'][number];

const TOOL_COLUMNS: ColumnDef<Tool, unknown>[] = [
  { header: 'Tool', accessorKey: 'tool' },
  {
    header: 'Ready',
    accessorKey: 'ready',
    cell: ({ row }) => (
      <Badge tone={row.original.ready ? 'success' : 'danger'}>{row.original.ready ? 'ready' : 'not ready'}</Badge>
    ),
  },
  { header: 'Missing', accessorFn: (row) => row.missing.join(', ') || '—' },
];
const PERMISSION_COLUMNS: ColumnDef<Permission, unknown>[] = [
  { header: 'Permission', accessorKey: 'name' },
  { header: 'Status', accessorKey: 'status' },
  { header: 'How we know', accessorKey: 'via' },
];

/** The Diagnostic Tool: paste a customer's token, see what a support engineer asks first. */
export function DiagnosticTool({ userEmail }: { userEmail: string }) {
  const form = useForm<DiagnoseRequest>({ resolver: zodResolver(diagnoseRequestSchema), defaultValues: { token: '' } });
  const diagnose = useRunDiagnostic(SHOWN_IN_PLACE);
  const run = form.handleSubmit(
    ({ token }) => diagnose.mutate(token),
    (errors) => toast.error(errors.token?.message ?? 'OAuth token not provided'),
  );
  const report = diagnose.data;
  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-semibold">Diagnostic Tool</h1>
      <p className="max-w-3xl text-slate-700">
        Paste a customer&apos;s API token to see whose it is, what it may do, what each toolkit tool would miss, the
        organization&apos;s rate-limit headroom, and agents, tests and quota at a glance. The token is used for this run
        only and never kept.
      </p>
      <form className="flex flex-wrap items-end gap-3" noValidate onSubmit={(event) => void run(event)}>
        <TokenField fieldClassName="min-w-0 flex-1 sm:min-w-80" {...form.register('token')} />
        <Button type="submit" variant="primary" busy={diagnose.isPending} busyLabel="Diagnosing">
          Run diagnostic
        </Button>
      </form>
      {diagnose.isError && <Banner tone="error">{diagnose.error.message}</Banner>}
      {report && <ReportView report={report} userEmail={userEmail} />}
    </section>
  );
}

function ReportView({ report, userEmail }: { report: DiagnosticReport; userEmail: string }) {
  const form = useForm<SendDiagnostic>({
    resolver: zodResolver(sendDiagnosticSchema),
    defaultValues: { email: userEmail },
  });
  const send = useSendDiagnostic();
  const submit = form.handleSubmit(({ email }) =>
    send.mutate({ id: report.id, email }, { onSuccess: () => toast.success('Diagnostic sent in Webex') }),
  );
  return (
    <article aria-label="Diagnostic" className="space-y-5 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="text-xl font-semibold" data-testid="identity">
            {report.identity ? `${report.identity.name} <${report.identity.email}>` : 'Identity unknown'}
          </h2>
          <p className="text-sm text-slate-600">
            {report.identity?.isOrgAdmin ? 'Organization Admin' : 'Not an Organization Admin'} ·{' '}
            {report.organizations.join(', ')} · {report.accountGroups.length} account groups · answer{' '}
            {report.platform.answerMs} ms ·{' '}
            {report.platform.rateLimit
              ? `${report.platform.rateLimit.remaining}/${report.platform.rateLimit.limit} requests left this minute`
              : 'no rate-limit headers'}
          </p>
        </div>
        <div className="flex gap-3 text-sm">
          <a className="text-brand-700 underline" href={diagnosticDownloadUrl(report.id, 'json')} download>
            Download JSON
          </a>
          <a className="text-brand-700 underline" href={diagnosticDownloadUrl(report.id, 'html')} download>
            Download HTML
          </a>
        </div>
      </div>
      <section aria-label="Checks" className="space-y-2">
        <h3 className="font-semibold">Checks</h3>
        <ul className="space-y-2">
          {report.checks.map((item) => (
            <li
              key={item.id}
              data-testid={`check-${item.id}`}
              data-status={item.status}
              className="rounded border border-slate-100 p-2"
            >
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone={TONES[item.status]}>{item.status}</Badge>
                <span className="font-medium">{item.title}</span>
                <span className="text-sm text-slate-600">{item.detail}</span>
              </div>
              {item.items.length > 0 && (
                <details className="mt-1 text-sm">
                  <summary className="cursor-pointer">
                    {item.items.length} item{item.items.length === 1 ? '' : 's'}
                  </summary>
                  <ul className="ml-5 list-disc">
                    {item.items.map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                </details>
              )}
            </li>
          ))}
        </ul>
      </section>
      <DataTable label="Toolkit tools" data={report.tools} columns={TOOL_COLUMNS} empty="No tools." />
      <DataTable label="Permissions" data={report.permissions} columns={PERMISSION_COLUMNS} empty="No permissions." />
      {report.identity && (
        <section aria-label="Roles by account group">
          <h3 className="font-semibold">Roles by account group</h3>
          <ul className="text-sm">
            {report.identity.roles.map((entry) => (
              <li key={entry.aid}>
                {entry.accountGroupName} ({entry.aid}): {entry.roles.length > 0 ? entry.roles.join(', ') : 'no role'}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-label="Send in Webex" className="rounded-md bg-slate-50 p-3">
        <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-wrap items-end gap-3">
          <TextInput
            label="Send to"
            type="email"
            error={form.formState.errors.email?.message}
            {...form.register('email')}
          />
          <Button type="submit" busy={send.isPending} busyLabel="Sending">
            Send in Webex
          </Button>
        </form>
      </section>
    </article>
  );
}

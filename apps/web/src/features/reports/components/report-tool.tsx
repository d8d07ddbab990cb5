import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import type { ReportKind, ReportRequest } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { reportLink, ReportWizard } from './report-wizard';

export interface ReportButton {
  mission: ReportKind;
  label: string;
  wizardTitle?: string;
  badge?: string;
}

export interface ReportToolProps {
  title: string;
  description: string;
  badge?: string;
  buttons: ReportButton[];
}

/** A report tool page: each button opens the shared wizard with its mission. */
export function ReportTool({ title, description, badge, buttons }: ReportToolProps) {
  const [open, setOpen] = useState<ReportButton | null>(null);
  const [requested, setRequested] = useState<{ report: ReportRequest; label: string } | null>(null);
  const close = useCallback(() => setOpen(null), []);
  return (
    <section className="max-w-3xl space-y-4">
      <div className="flex items-center gap-3">
        <h1 className="text-2xl font-semibold">{title}</h1>
        {badge && (
          <span className="rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-800">{badge}</span>
        )}
      </div>
      <p className="text-slate-600">{description}</p>
      <div className="flex flex-wrap gap-3">
        {buttons.map((button) => (
          <Button key={button.mission} variant="primary" onClick={() => setOpen(button)}>
            {button.label}
            {button.badge && <span className="rounded bg-white px-1 text-xs text-brand-800">{button.badge}</span>}
          </Button>
        ))}
      </div>
      {requested && <RequestedLine {...requested} />}
      <ReportWizard
        mission={open?.mission ?? null}
        title={open?.wizardTitle ?? open?.label ?? ''}
        onClose={close}
        onSubmitted={(report) => setRequested({ report, label: open?.label ?? 'The report' })}
      />
    </section>
  );
}

/** Where the report just requested went: the job's queue, then Webex and My Reports. */
function RequestedLine({ report, label }: { report: ReportRequest; label: string }) {
  const link = reportLink(report.id);
  return (
    <p role="status" className="rounded-lg border border-green-300 bg-green-50 px-4 py-2 text-sm text-slate-900">
      {label}: requested for {report.organizationName}. It runs in the background; Webex tells you when it is ready.{' '}
      <Link to={link.to} className="font-semibold text-brand-800 underline">
        {link.label}
      </Link>
    </p>
  );
}

import { Link } from 'react-router';
import { PATHS, type PortfolioEntry } from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useExportFleet } from '../api/fleet-summary';

const day = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** A customer's last review pack (a link to it in My Reports) and when the next is due; "No pack yet" before any. */
export function PackCell({ entry }: { entry: PortfolioEntry }) {
  const { lastPack, nextPackDue } = entry;
  if (!lastPack || !nextPackDue)
    return (
      <span className="text-slate-600" data-testid="portfolio-pack">
        No pack yet
      </span>
    );
  // Due from that day on: the period after the last pack's has ended.
  const dueNow = nextPackDue <= new Date().toISOString().slice(0, 10);
  return (
    <span className="flex flex-col gap-0.5" data-testid="portfolio-pack">
      <Link
        to={`${PATHS.reports}?report=${encodeURIComponent(lastPack.reportId)}`}
        className="text-brand-800 underline"
        aria-label={`${lastPack.periodLabel} review pack of ${entry.organizationName}, in My Reports`}
      >
        {lastPack.periodLabel}
      </Link>
      <span className="text-sm whitespace-nowrap">
        Next due {day(nextPackDue)} {dueNow && <Badge tone="warning">Due now</Badge>}
      </span>
    </span>
  );
}

/** Saves the fleet summary of the customers shown (mine, or everyone's) as a CSV. */
export function ExportFleetButton({ everyone }: { everyone: boolean }) {
  const exported = useExportFleet();
  return (
    <Button
      size="sm"
      busy={exported.isPending}
      busyLabel="Exporting"
      onClick={() => exported.mutate(everyone)}
      className="ml-auto"
    >
      Export fleet summary
    </Button>
  );
}

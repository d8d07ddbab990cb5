import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { PATHS, REVIEW_MESSAGES, type ReportRequest, type ReviewNarrative, type ReviewPackOptions } from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { TokenField } from '../../../components/ui/token-field';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { useCustomers } from '../../../lib/customer';
import { artifactUrl, reportPercent } from '../../../lib/report-files';
import { ApiRequestError } from '../../../lib/api-client';
import { apiErrorText, SHOWN_IN_PLACE } from '../../../lib/error-toasts';
import { useTokenGroups } from '../../../lib/use-token-groups';
import { useBuildPack, useReport } from '../api/review';

// The kit's job line reads its words from a contract module that also holds a schema: loaded once a pack is
// requested, so the page's first screen carries no schema library.
const JobLine = lazy(() => import('../../../components/ui/job-line').then((module) => ({ default: module.JobLine })));

export const BUILD_WORDS = {
  noToken: 'Paste the customer’s Org Admin token, or choose the customer in the navbar.',
  otherOrganization: (customer: string) =>
    `This token does not reach ${customer}: paste a token of ${customer}’s organization.`,
  checkFailed: 'The token could not be checked. Try again in a moment.',
  notSaved: (why: string) => `The narrative could not be saved, so the pack was not requested: ${why}`,
} as const;

/** Why a call made with the token failed: a token the platform refused is said as such, with what to do. */
const tokenProblem = (error: unknown, fallback: string) =>
  error instanceof ApiRequestError && error.status === 401 && error.code !== 'unauthorized'
    ? REVIEW_MESSAGES.tokenRefused
    : apiErrorText(error, fallback);

/** Where a pack being built stands, and its files once it is done. */
function PackProgress({ report }: { report: ReportRequest }) {
  const running = report.status === 'queued' || report.status === 'running';
  const percent = reportPercent(report);
  return (
    <div className="space-y-2 rounded-md border border-slate-200 p-3" data-testid="pack-progress">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">The pack:</span>
        <Badge
          tone={report.status === 'done' ? 'success' : report.status === 'failed' ? 'danger' : 'sky'}
          data-testid="pack-status"
        >
          {report.status}
        </Badge>
      </p>
      {running && <ProgressBar percent={percent} label="Progress of the pack" />}
      <Suspense fallback={null}>
        <JobLine
          status={report.status}
          ahead={report.ahead}
          organizationName={report.organizationName}
          done={report.progress.done}
          total={report.progress.total}
          unit="steps"
        />
      </Suspense>
      {report.error && <p className="text-sm text-red-700">{report.error}</p>}
      {report.status === 'done' && (
        <div className="flex flex-wrap gap-2" data-testid="pack-files">
          {report.artifacts.map((artifact) => (
            <a
              key={artifact.id}
              href={artifactUrl(report.id, artifact.id)}
              download={artifact.filename}
              className="inline-flex min-h-6 items-center rounded border border-slate-300 px-2 py-1 text-sm break-all text-brand-800 hover:bg-slate-50"
            >
              Download {artifact.filename}
            </a>
          ))}
        </div>
      )}
      <Link
        to={`${PATHS.reports}?report=${encodeURIComponent(report.id)}`}
        className="inline-flex min-h-6 items-center text-sm text-brand-800 underline"
      >
        Open in My Reports
      </Link>
    </div>
  );
}

export interface BuildPackProps {
  organizationId: string;
  customer: string;
  /** The pack's options and the narrative edited but not saved yet, or why it cannot be built yet. */
  options: () => { options: ReviewPackOptions; unsaved: ReviewNarrative | null } | { problem: string };
  /** Saves the narrative with the token checked here (the pack saves none): done before the pack is requested. */
  keep: (narrative: ReviewNarrative, token: string) => Promise<unknown>;
}

/**
 * "Build the pack": a report request of kind `review-pack` with the customer's token (the one chosen in the navbar, or
 * one pasted) and every account group it sees in the organization; then its progress and files. An edited narrative
 * is saved first, so the pack and the narrative kept for the next one say the same.
 */
export function BuildPack({ organizationId, customer, options, keep }: BuildPackProps) {
  const { current } = useCustomers();
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [reportId, setReportId] = useState<string | null>(null);
  // What went wrong is said here, once, beside the button (no toast besides it).
  const tokenGroups = useTokenGroups(SHOWN_IN_PLACE);
  const build = useBuildPack();
  const report = useReport(reportId);

  const submit = async () => {
    setProblem(null);
    const asked = options();
    if ('problem' in asked) {
      setProblem(asked.problem);
      return;
    }
    if (!token.trim()) {
      setProblem(BUILD_WORDS.noToken);
      return;
    }
    let groups;
    try {
      groups = (await tokenGroups.load(token.trim())).filter((group) => group.organizationId === organizationId);
    } catch (error) {
      setProblem(tokenProblem(error, BUILD_WORDS.checkFailed));
      return;
    }
    const first = groups[0];
    if (!first) {
      setProblem(BUILD_WORDS.otherOrganization(customer));
      return;
    }
    if (asked.unsaved) {
      try {
        await keep(asked.unsaved, token.trim());
      } catch (error) {
        setProblem(BUILD_WORDS.notSaved(error instanceof Error && error.message ? error.message : 'try again.'));
        return;
      }
    }
    build.mutate(
      {
        kind: 'review-pack',
        token: token.trim(),
        organization: { id: organizationId, name: first.organizationName || customer },
        accountGroups: groups.map(({ aid, accountGroupName }) => ({ aid, accountGroupName })),
        options: asked.options,
      },
      {
        onSuccess: (requested) => setReportId(requested.id),
        onError: (error) => setProblem(tokenProblem(error, 'The pack could not be requested. Try again.')),
      },
    );
  };

  const shown = report.data ?? (build.data?.id === reportId ? build.data : undefined);
  return (
    <div className="space-y-3">
      <TokenField
        label="Org Admin token"
        value={token}
        onChange={(event) => setToken(event.target.value)}
        customer={current?.organizationId === organizationId}
        hint="Used for what only the platform answers (outages, evidence links), then forgotten."
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="primary"
          onClick={() => void submit()}
          busy={tokenGroups.loading || build.isPending}
          busyLabel="Requesting the pack"
        >
          Build the pack
        </Button>
        <span className="text-sm text-slate-600">A deck (PPTX), its PDF and the pack’s figures (JSON).</span>
      </div>
      {problem && (
        <p role="alert" className="text-sm text-red-700" data-testid="build-problem">
          {problem}
        </p>
      )}
      {shown && <PackProgress report={shown} />}
    </div>
  );
}

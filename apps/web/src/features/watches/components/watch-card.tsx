import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { PATHS, WATCH_CARD, type Watch, type WatchRun } from '@ce/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast-store';
import { useDeleteWatch } from '../api/delete-watch';
import { usePauseOrResumeWatch } from '../api/pause-or-resume-watch';
import { useRevokeWatchToken } from '../api/revoke-watch-token';
import { useRunWatchNow } from '../api/run-watch-now';
import { useWatchRuns } from '../api/watch-runs';
import { runProgressWords, STARTING } from '../run-progress';
import { useConfirmation } from '../../../components/ui/confirm-dialog';
import { ScoreTrend } from './score-trend';
import { dateOnly, dateTime } from '../../../lib/dates';

// Its form (and the schema library) load when asked for: the page's first screen goes without them.
const StoreTokenDialog = lazy(() =>
  import('./store-token-dialog').then((module) => ({ default: module.StoreTokenDialog })),
);
const EditWatchDialog = lazy(() =>
  import('./edit-watch-dialog').then((module) => ({ default: module.EditWatchDialog })),
);

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const RUNS_WORDS = { health: 'Health check', backup: 'Backup', both: 'Health check and backup' } as const;
const RUN_TONE: Record<WatchRun['status'], BadgeTone> = {
  queued: 'neutral',
  running: 'sky',
  done: 'success',
  failed: 'danger',
};
const SAID: Record<WatchRun['delivery']['status'], string> = {
  pending: 'Not yet',
  sent: 'Sent',
  quiet: 'Nothing changed: nothing sent',
  failed: 'Webex refused the message',
  none: 'Nothing sent',
};

/** "Weekly on Monday at 07:00 (Europe/Paris)". */
export function scheduleWords({ schedule }: Watch): string {
  const when = schedule.cadence === 'weekly' ? `Weekly on ${WEEKDAYS[schedule.weekday ?? 1] ?? 'Monday'}` : 'Daily';
  return `${when} at ${schedule.time} (${schedule.timeZone})`;
}

/** "Anything changed, a score drop of 5 points or more": when the watch sends its message. */
export function speakWords({ speakWhen }: Watch): string {
  const said = [
    speakWhen.anyChange && 'anything changed',
    speakWhen.drift && 'the configuration changed',
    speakWhen.scoreDrop !== null && `the score dropped by ${speakWhen.scoreDrop} points or more`,
    speakWhen.newFindingsAtLeast &&
      `new ${speakWhen.newFindingsAtLeast === 'fail' ? 'failing' : 'warning or worse'} findings`,
    speakWhen.weeklyQuietLine && '“all quiet” once a week',
  ].filter((words): words is string => typeof words === 'string');
  const words = said.length > 0 ? said.join(', ') : 'never (nothing is sent)';
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const when = (iso: string | null) => (iso ? dateTime(iso) : '—');

/**
 * The next run in the reader's time, the zone named when the watch's own is another: "Daily at 18:30
 * (Europe/Paris)" above "2 Dec 2026, 17:30" read as a wrong time otherwise.
 */
export function nextRunWords({ nextRunAt, schedule }: Watch, readerZone = localZone()): string {
  if (!nextRunAt) return '—';
  if (sameZone(readerZone, schedule.timeZone, nextRunAt)) return dateTime(nextRunAt);
  return WATCH_CARD.nextRunInReaderZone(dateTime(nextRunAt), readerZone);
}

const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Two zone names that tell the same clock at `iso` ("UTC" and "Etc/UTC", or one name twice). */
function sameZone(one: string, other: string, iso: string): boolean {
  if (one === other) return true;
  try {
    const clock = (timeZone: string) =>
      new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
    return clock(one) === clock(other);
  } catch {
    return false;
  }
}

/** A message as Webex shows it, in plain text: its markup (bold, escapes, entities) taken out. */
export function plainText(markdown: string): string {
  return markdown
    .replaceAll('**', '')
    .replace(/\\(.)/g, '$1')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

const STATUS_WORDS: Record<WatchRun['status'], string> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
};

/** One watch: what it runs when and where it speaks, its token's consent, its actions, its runs and trend. */
export function WatchCard({ watch }: { watch: Watch }) {
  const runs = useWatchRuns(watch.id);
  const runNow = useRunWatchNow();
  const pauseOrResume = usePauseOrResumeWatch();
  const revoke = useRevokeWatchToken();
  const remove = useDeleteWatch();
  const confirmation = useConfirmation();
  const [storing, setStoring] = useState(false);
  const [editing, setEditing] = useState(false);
  const listed = runs.data ?? [];
  const underWay = listed.some((run) => run.status === 'queued' || run.status === 'running');
  // Asked, not yet answered: the run is shown starting at once.
  const starting = runNow.isPending && !underWay;
  const groups = watch.accountGroups.map((group) => group.accountGroupName).join(', ');
  const active = watch.status === 'active';

  return (
    <article
      className="space-y-3 rounded-lg border border-slate-200 p-4"
      data-testid="watch"
      aria-label={`Watch of ${groups}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-lg font-medium">{groups}</h3>
        <Badge tone={active ? 'success' : 'warning'}>{active ? 'Active' : 'Paused'}</Badge>
        {/* A room's id is one long word: it breaks anywhere rather than run off a phone's screen. */}
        <span className="min-w-0 text-sm text-slate-600">
          {RUNS_WORDS[watch.runs]} · {scheduleWords(watch)} ·{' '}
          {watch.channel.kind === 'room' ? (
            <>
              Webex room <span className="break-all">{watch.channel.roomId}</span>
            </>
          ) : (
            `${watch.owner.name} in Webex`
          )}
        </span>
      </div>
      {watch.pausedReason && <p className="text-sm text-amber-800">{watch.pausedReason}</p>}
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-slate-600">Next run</dt>
        <dd>{nextRunWords(watch)}</dd>
        <dt className="text-slate-600">Message when</dt>
        <dd>{speakWords(watch)}</dd>
        <dt className="text-slate-600">Stored token</dt>
        <dd>
          {watch.token
            ? `…${watch.token.last4}, approved by ${watch.token.contactName} (${watch.token.contactEmail}) until ${dateOnly(watch.token.expiresAt)}`
            : 'None: store one with the customer’s consent to resume'}
        </dd>
        <dt className="text-slate-600">Owner</dt>
        <dd>{watch.owner.name}</dd>
        {watch.monthlyReviewPack && (
          <>
            <dt className="text-slate-600">Review pack</dt>
            <dd>Last month’s, built on the first run of each month (in My Reports)</dd>
          </>
        )}
      </dl>
      <div className="flex flex-wrap gap-2">
        {active && (
          <Button
            size="sm"
            busy={runNow.isPending || underWay}
            busyLabel={underWay ? 'Running' : 'Starting'}
            onClick={() =>
              runNow.mutate(watch.id, { onSuccess: () => toast.success(`Run started for ${watch.organizationName}`) })
            }
          >
            Run now
          </Button>
        )}
        {(active || watch.token) && (
          <Button
            size="sm"
            variant="secondary"
            busy={pauseOrResume.isPending}
            busyLabel={active ? 'Pausing' : 'Resuming'}
            onClick={() =>
              pauseOrResume.mutate(
                { id: watch.id, pause: active },
                {
                  onSuccess: (changed) => toast.success(`Watch ${changed.status === 'active' ? 'resumed' : 'paused'}`),
                },
              )
            }
          >
            {active ? 'Pause' : 'Resume'}
          </Button>
        )}
        {watch.token && (
          <Button
            size="sm"
            variant="secondary"
            onClick={() =>
              confirmation.ask({
                title: `Revoke the stored token of ${watch.organizationName}?`,
                body: `The token (…${watch.token?.last4}) is erased now and the watch pauses until a new one is stored with the customer’s consent.`,
                confirm: 'Revoke token',
                busy: 'Revoking',
                run: () => revoke.mutateAsync(watch.id).then(() => toast.success('Stored token revoked and erased')),
              })
            }
          >
            Revoke token
          </Button>
        )}
        {!watch.token && (
          <Button size="sm" onClick={() => setStoring(true)}>
            Store a new token
          </Button>
        )}
        <Button size="sm" variant="secondary" onClick={() => setEditing(true)}>
          Edit
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() =>
            confirmation.ask({
              title: `Delete the watch of ${groups}?`,
              body: 'Its schedule, its runs’ history and its stored token go. The reports and backups it made stay.',
              confirm: 'Delete watch',
              busy: 'Deleting',
              run: () => remove.mutateAsync(watch.id).then(() => toast.success('Watch deleted')),
            })
          }
        >
          Delete
        </Button>
      </div>
      <ScoreTrend runs={listed} />
      <section aria-label="Runs" className="space-y-2">
        <h4 className="text-sm font-medium">Runs</h4>
        {listed.length === 0 && !starting && <p className="text-sm text-slate-600">No run yet.</p>}
        <ul className="space-y-2">
          {starting && (
            <li className="rounded border border-slate-100 p-2 text-sm" data-testid="watch-run-starting">
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone={RUN_TONE.queued}>{STATUS_WORDS.queued}</Badge>
                <span className="text-slate-600">Asked for now</span>
              </div>
              <p className="text-slate-600" role="status">
                {STARTING}
              </p>
            </li>
          )}
          {listed.slice(0, 10).map((run) => (
            <li key={run.id} className="rounded border border-slate-100 p-2 text-sm" data-testid="watch-run">
              <div className="flex flex-wrap items-center gap-2">
                <time dateTime={run.createdAt}>{when(run.createdAt)}</time>
                <Badge tone={RUN_TONE[run.status]}>{STATUS_WORDS[run.status]}</Badge>
                <span>{run.trigger === 'now' ? 'Asked for now' : 'On schedule'}</span>
                {run.score !== null && <span>Score {run.score}/100</span>}
                {run.waivedFindings ? <span>{run.waivedFindings} waived</span> : null}
                {run.status === 'done' && <span className="text-slate-600">{SAID[run.delivery.status]}</span>}
                {run.reportId && (
                  <Link
                    className="inline-flex min-h-6 items-center text-brand-800 underline"
                    to={`${PATHS.reports}?report=${run.reportId}`}
                  >
                    Full report
                  </Link>
                )}
              </div>
              {runProgressWords(run) && (
                <p className="text-slate-600" role="status" data-testid="run-progress">
                  {runProgressWords(run)}
                </p>
              )}
              {run.error && <p className="text-red-700">{run.error}</p>}
              {run.status === 'done' && run.delivery.error && run.delivery.status !== 'sent' && (
                <p className="text-amber-700">
                  {run.delivery.status === 'pending'
                    ? `Not sent in Webex yet: ${run.delivery.error}. It is tried again.`
                    : `Not sent in Webex: ${run.delivery.error}.`}
                </p>
              )}
              {run.message && (
                <details>
                  <summary className="min-h-6 cursor-pointer py-0.5 text-brand-800">What it said</summary>
                  <p className="mt-1 whitespace-pre-wrap break-words">{plainText(run.message)}</p>
                </details>
              )}
            </li>
          ))}
        </ul>
      </section>
      {storing && (
        <Suspense fallback={null}>
          <StoreTokenDialog watch={watch} isOpen onClose={() => setStoring(false)} />
        </Suspense>
      )}
      {editing && (
        <Suspense fallback={null}>
          <EditWatchDialog watch={watch} isOpen onClose={() => setEditing(false)} />
        </Suspense>
      )}
      {confirmation.dialog}
    </article>
  );
}

import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { PATHS, REVIEW_KEY_TESTS_MAX, REVIEW_MESSAGES, type ReviewNarrative } from '@ce/contract';
import { ApiRequestError } from '../../../lib/api-client';
import { Banner } from '../../../components/ui/banner';
import { Spinner } from '../../../components/ui/spinner';
import { useCustomers } from '../../../lib/customer';
import { useReviewNarrative, useReviewPreview, useSaveNarrative } from '../api/review';
import { cleanNarrative, sameNarrative } from '../narrative';
import {
  cutOffInput,
  cutOffNow,
  cutOffOf,
  cutOffProblem,
  dayProblems,
  defaultPeriod,
  periodProblem,
  utcMinute,
} from '../period';
import { BuildPack } from './build-pack';
import { KeyTests } from './key-tests';
import { NarrativeEditor } from './narrative-editor';
import { PeriodPicker } from './period-picker';
import { SlideCard } from './slide-card';

const systemNow = () => new Date();

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="min-w-0 space-y-3">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * /home/customers/{organization}/review: a customer's review pack. The period and its cut-off, the key tests, the
 * narrative only a person writes (kept for the next pack), "Build the pack", and the slides as the pack will show
 * them, read from what the toolkit stored.
 */
export function ReviewPackPage({ now = systemNow }: { now?: () => Date }) {
  const { organizationId = '' } = useParams();
  const { current, recent } = useCustomers();
  const [period, setPeriod] = useState(() => defaultPeriod('month', now()));
  const [cutOffText, setCutOffText] = useState(() => cutOffInput(cutOffNow(now())));
  /** The key tests the person chose; null while the pack follows those the measurements propose (worst first). */
  const [keyTests, setKeyTests] = useState<string[] | null>(null);
  const [draft, setDraft] = useState<ReviewNarrative | null>(null);

  const cutOff = cutOffOf(cutOffText);
  const periodSaid = periodProblem(period, now());
  const cutOffSaid = periodSaid ? null : cutOffProblem(cutOff, period, now());
  const valid = !periodSaid && !cutOffSaid && cutOff !== null;
  const known = [current, ...recent].find((customer) => customer?.organizationId === organizationId);
  // The token the browser holds for the customer: what ties a caller without a watch over it to its narrative.
  const token = known?.token;
  const preview = useReviewPreview(organizationId, token, valid ? { period, cutOff, keyTests } : null);
  const kept = useReviewNarrative(organizationId, token);
  const save = useSaveNarrative(organizationId, token);

  const proposed = preview.data?.proposedKeyTests;
  const followed = keyTests ?? (proposed ?? []).slice(0, REVIEW_KEY_TESTS_MAX).map((test) => test.testId);
  // The narrative is edited from the kept one.
  if (draft === null && kept.data) setDraft(kept.data.narrative);

  // The customer by name wherever the app knows it (the one chosen or recent, else the server's records), never its id.
  const named = known?.organizationName ?? preview.data?.customer;
  const customer = named ?? 'this customer';
  const customerPage = `${PATHS.customers}/${encodeURIComponent(organizationId)}`;
  // What the preview waits for, in the words said beside the fields.
  const waitsFor = [
    ...new Set(
      [...(period.kind === 'dates' ? Object.values(dayProblems(period, now())) : [periodSaid]), cutOffSaid].filter(
        (said): said is string => Boolean(said),
      ),
    ),
  ];

  // The pack says the narrative shown; an edited one is saved before the pack is requested (the pack saves none).
  // Not read (the page may not see it), none is sent: the pack then says the one kept when it is built.
  const options = () => {
    if (periodSaid || cutOffSaid || !cutOff) return { problem: periodSaid ?? cutOffSaid ?? 'Choose the cut-off.' };
    if (draft === null || !kept.data) return { options: { period, cutOff, keyTests: followed }, unsaved: null };
    const { narrative, problem } = cleanNarrative(draft);
    if (problem) return { problem };
    const unsaved = sameNarrative(narrative, kept.data.narrative) ? null : narrative;
    return { options: { period, cutOff, keyTests: followed, narrative }, unsaved };
  };
  const closed = (error: Error | null) => error instanceof ApiRequestError && error.status === 403;
  // No such customer: nothing in the toolkit names the id (404), or the browser knows it not and the server shows it
  // to those tied to it only: no form to fill for it, the words of why and a way back.
  const refusedAs = (error: Error | null, code: string) => error instanceof ApiRequestError && error.code === code;
  const unknown =
    refusedAs(preview.error, 'unknown_customer') ||
    (!known &&
      refusedAs(kept.error, 'not_tied_to_organization') &&
      refusedAs(preview.error, 'not_tied_to_organization'));
  if (unknown)
    return (
      <div className="max-w-3xl min-w-0 space-y-4" data-testid="unknown-customer">
        <h1 className="text-2xl font-semibold">{REVIEW_MESSAGES.unknownCustomerTitle}</h1>
        <Banner tone="info">{preview.error?.message}</Banner>
        <Link to={PATHS.customers} className="inline-flex min-h-6 items-center text-sm text-brand-800 underline">
          {REVIEW_MESSAGES.backToCustomers}
        </Link>
      </div>
    );

  return (
    <div className="max-w-6xl min-w-0 space-y-6">
      <div className="space-y-1">
        <Link to={customerPage} className="inline-flex min-h-6 items-center text-sm text-brand-800 underline">
          Back to {customer}
        </Link>
        <h1 className="text-2xl font-semibold break-words">{named ? `Review pack: ${named}` : 'Review pack'}</h1>
        <p className="text-sm text-slate-600">
          A monthly or quarterly business review from what the watches measured and the team did, as a deck (PPTX) and
          its PDF, kept in My Reports.
        </p>
      </div>

      <Section id="review-period" title="Period">
        <PeriodPicker
          period={period}
          onPeriodChange={setPeriod}
          cutOffText={cutOffText}
          onCutOffTextChange={setCutOffText}
          periodProblem={periodSaid}
          cutOffProblem={cutOffSaid}
          now={now}
        />
      </Section>

      <Section id="review-key-tests" title="Key tests">
        {proposed ? (
          <KeyTests proposed={proposed} selected={followed} onChange={setKeyTests} />
        ) : (
          <p className="text-sm text-slate-600">The tests are proposed with the preview.</p>
        )}
      </Section>

      <Section id="review-narrative" title="What only you can write">
        {kept.isError ? (
          <p className="text-sm text-red-700" data-testid="narrative-closed">
            {closed(kept.error) ? kept.error.message : 'The narrative kept for this customer could not be read.'}
          </p>
        ) : draft && kept.data ? (
          <NarrativeEditor
            draft={draft}
            onChange={setDraft}
            kept={kept.data}
            onSave={(narrative) => save.mutateAsync({ narrative })}
            saving={save.isPending}
          />
        ) : (
          <Spinner label="Reading the narrative" className="h-5 w-5 text-brand-700" />
        )}
      </Section>

      <Section id="review-build" title="Build the pack">
        <BuildPack
          organizationId={organizationId}
          customer={customer}
          options={options}
          keep={(narrative, checked) => save.mutateAsync({ narrative, token: checked })}
        />
      </Section>

      <Section id="review-preview" title="Preview">
        {!valid ? (
          <div className="text-sm text-slate-700" data-testid="preview-waits">
            <p>{REVIEW_MESSAGES.previewWaits}</p>
            <ul className="list-disc pl-5">
              {waitsFor.map((said) => (
                <li key={said}>{said}</li>
              ))}
            </ul>
          </div>
        ) : preview.isError ? (
          <Banner tone="error">
            {closed(preview.error)
              ? preview.error.message
              : `${preview.error.message || 'The preview could not be read.'} The period and cut-off above may be changed.`}
          </Banner>
        ) : !preview.data ? (
          <Spinner label="Reading what the watches stored" className="h-6 w-6 text-brand-700" />
        ) : (
          <div className="space-y-3" aria-busy={preview.isFetching || undefined}>
            <p className="text-sm text-slate-700" data-testid="preview-period">
              {preview.data.periodLabel}, figures up to {utcMinute(preview.data.cutOff)}.
            </p>
            {preview.data.platformLater.length > 0 && (
              <Banner tone="info">
                Read from the platform when the pack is built: {preview.data.platformLater.join('; ')}.
              </Banner>
            )}
            <ol className="grid gap-4 lg:grid-cols-2" aria-label="Slides">
              {preview.data.slides.map((slide, index) => (
                // A table of many columns takes the whole width, where its words need not wrap in every cell.
                <li
                  key={`${index}:${slide.title}`}
                  className={`min-w-0 ${slide.kind === 'table' && slide.columns.length > 3 ? 'lg:col-span-2' : ''}`}
                >
                  <SlideCard slide={slide} number={index + 1} />
                </li>
              ))}
            </ol>
          </div>
        )}
      </Section>
    </div>
  );
}

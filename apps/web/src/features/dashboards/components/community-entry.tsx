import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { DASHBOARD_LIMITS, DASHBOARD_MESSAGES, type CommunityDashboard, type DashboardStatus } from '@ce/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { TextArea } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { imageUrl } from '../api/image-url';
import { useDashboardTemplate } from '../api/dashboard-template';
import { useReview } from '../api/review';
import { useSetStatus } from '../api/set-status';
import { useVote } from '../api/vote';
import { ImageDialog } from './image-dialog';
import { dateOnly } from '../../../lib/dates';

const STATUS_TONES: Record<DashboardStatus, BadgeTone> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'danger',
};

export interface CommunityEntryProps {
  dashboard: CommunityDashboard;
  canReview: boolean;
  onJson: () => void;
  onPush: () => void;
}

/** One gallery entry: what it is, who sent it, its status and votes; expanded, its screenshots and JSON. */
export function CommunityEntry({ dashboard, canReview, onJson, onPush }: CommunityEntryProps) {
  // The entry a link opened (?dashboard=<id>, "See it in the gallery" after a clone) is marked and in view.
  const opened = useSearchParams()[0].get('dashboard') === dashboard.id;
  const [expanded, setExpanded] = useState(false);
  const [image, setImage] = useState<number | null>(null);
  const vote = useVote({ errorMessage: () => DASHBOARD_MESSAGES.voteFailed });
  const template = useDashboardTemplate(dashboard.id, expanded);
  const headingId = `entry-${dashboard.id}`;

  const toggleVote = () => {
    const action = dashboard.userVoted ? 'Voted' : 'Vote';
    vote.mutate(
      { id: dashboard.id, action },
      {
        onSuccess: (answer) => toast.success(answer.message),
      },
    );
  };

  return (
    <li
      ref={opened ? (element) => element?.scrollIntoView({ block: 'center' }) : undefined}
      aria-labelledby={headingId}
      aria-current={opened ? 'true' : undefined}
      className={`rounded-lg border bg-white p-4 shadow-sm ${opened ? 'border-brand-600 ring-2 ring-brand-600' : 'border-slate-200'}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={headingId} className="text-lg font-semibold">
              {dashboard.title}
            </h3>
            <Badge tone={STATUS_TONES[dashboard.status]} data-testid="status">
              {dashboard.status}
            </Badge>
          </div>
          <p className="text-slate-700">{dashboard.description}</p>
          <p className="text-xs text-slate-500">
            By {dashboard.creator} · submitted {dateOnly(dashboard.submittedDate)} · {dashboard.widgetCount} widget
            {dashboard.widgetCount === 1 ? '' : 's'} · from {dashboard.source.accountGroupName} ·{' '}
            <span data-testid="push-count">
              pushed {dashboard.pushCount} time{dashboard.pushCount === 1 ? '' : 's'}
            </span>
          </p>
          {dashboard.review && (
            <p className="text-sm text-slate-600">
              {dashboard.review.status === 'approved' ? 'Approved' : 'Rejected'} by {dashboard.review.reviewer}
              {dashboard.review.comment ? `: “${dashboard.review.comment}”` : ''}
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Button
            size="sm"
            variant={dashboard.userVoted ? 'primary' : 'secondary'}
            aria-pressed={dashboard.userVoted}
            busy={vote.isPending}
            busyLabel="Saving vote"
            onClick={toggleVote}
          >
            {dashboard.userVoted ? 'Voted' : 'Vote'}
            <span data-testid="votes" aria-label={`${dashboard.votes} votes`} className="rounded bg-black/10 px-1.5">
              {dashboard.votes}
            </span>
          </Button>
          <Button size="sm" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
            Images
          </Button>
          <Button size="sm" onClick={onJson}>
            JSON
          </Button>
          {dashboard.status !== 'rejected' && (
            <Button size="sm" variant="primary" onClick={onPush}>
              Push
            </Button>
          )}
        </div>
      </div>

      {expanded && (
        <div className="mt-4 space-y-4 border-t border-slate-100 pt-4">
          {dashboard.imageCount > 0 ? (
            <div className="grid gap-3 sm:grid-cols-3">
              {Array.from({ length: dashboard.imageCount }, (_, index) => (
                <button
                  key={index}
                  type="button"
                  onClick={() => setImage(index + 1)}
                  className="overflow-hidden rounded border border-slate-200 hover:ring-2 hover:ring-brand-500"
                >
                  <img
                    src={imageUrl(dashboard.id, index + 1)}
                    alt={`${dashboard.title}, screenshot ${index + 1}`}
                    className="h-32 w-full object-cover"
                    loading="lazy"
                  />
                </button>
              ))}
            </div>
          ) : (
            <p className="text-sm text-slate-500">{DASHBOARD_MESSAGES.noImages}</p>
          )}
          <details>
            <summary className="cursor-pointer text-sm font-medium">JSON preview</summary>
            <pre
              aria-label="JSON preview"
              className="mt-2 max-h-64 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100"
            >
              {template.data ? JSON.stringify(template.data[0], null, 2) : 'Loading…'}
            </pre>
          </details>
          <Reviews dashboard={dashboard} />
          {canReview && <ReviewerDecision dashboard={dashboard} />}
        </div>
      )}
      <ImageDialog
        title={dashboard.title}
        src={image === null ? null : imageUrl(dashboard.id, image)}
        position={image ?? 0}
        onClose={() => setImage(null)}
      />
    </li>
  );
}

/** Everyone's short reviews, and a box to add one. */
function Reviews({ dashboard }: { dashboard: CommunityDashboard }) {
  const [text, setText] = useState('');
  const review = useReview();
  const send = () => {
    if (!text.trim()) return;
    review.mutate(
      { id: dashboard.id, text: text.trim() },
      {
        onSuccess: () => {
          setText('');
          toast.success('Review added');
        },
      },
    );
  };
  return (
    <section className="space-y-2" aria-label="Reviews">
      <h4 className="text-sm font-semibold">Reviews ({dashboard.reviews.length})</h4>
      <ul className="space-y-1 text-sm">
        {dashboard.reviews.map((item) => (
          <li key={item.id}>
            <span className="font-medium">{item.author}</span>: {item.text}{' '}
            <span className="text-xs text-slate-500">{dateOnly(item.createdAt)}</span>
          </li>
        ))}
      </ul>
      <div className="flex items-end gap-2">
        <TextArea
          label="Your review"
          rows={2}
          fieldClassName="flex-1"
          maxLength={DASHBOARD_LIMITS.reviewMax}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <Button
          onClick={send}
          disabled={!text.trim()}
          busy={review.isPending}
          busyLabel="Sending review"
          className="mb-1"
        >
          Add review
        </Button>
      </div>
    </section>
  );
}

/** A reviewer approves or rejects the entry, with a comment everyone sees. */
function ReviewerDecision({ dashboard }: { dashboard: CommunityDashboard }) {
  const [comment, setComment] = useState(dashboard.review?.comment ?? '');
  const setStatus = useSetStatus();
  const decide = (status: 'approved' | 'rejected') =>
    setStatus.mutate(
      { id: dashboard.id, status, comment: comment.trim() },
      {
        onSuccess: () => toast.success(status === 'approved' ? 'Dashboard approved' : 'Dashboard rejected'),
      },
    );
  return (
    <section className="space-y-2 rounded-md bg-slate-50 p-3" aria-label="Reviewer decision">
      <TextArea
        label="Reviewer comment"
        rows={2}
        maxLength={DASHBOARD_LIMITS.reviewCommentMax}
        value={comment}
        onChange={(event) => setComment(event.target.value)}
      />
      <div className="flex gap-2">
        <Button size="sm" variant="primary" busy={setStatus.isPending} onClick={() => decide('approved')}>
          Approve
        </Button>
        <Button size="sm" variant="danger" busy={setStatus.isPending} onClick={() => decide('rejected')}>
          Reject
        </Button>
      </div>
    </section>
  );
}

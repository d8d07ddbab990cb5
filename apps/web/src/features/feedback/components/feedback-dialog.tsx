import { MessageSquare } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { FEEDBACK_LIMITS, FEEDBACK_MESSAGES } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Select, TextArea } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { apiErrorText } from '../../../lib/error-toasts';
import { useSendFeedback } from '../api/send-feedback';

const RATINGS = [
  { value: '', label: 'No score' },
  { value: '5', label: '5: very useful' },
  { value: '4', label: '4' },
  { value: '3', label: '3' },
  { value: '2', label: '2' },
  { value: '1', label: '1: not useful' },
];

/**
 * The navbar's button for feedback and its dialog: what the user writes is mailed to the team, with the page
 * they were on. Its name avoids the words of the tools' own buttons ("Feedback" holds "Back", which a
 * wizard's Back button is found by).
 */
export function FeedbackButton() {
  const [isOpen, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [rating, setRating] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { pathname } = useLocation();
  const send = useSendFeedback();

  const close = () => {
    setOpen(false);
    setProblem(null);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setProblem(FEEDBACK_MESSAGES.empty);
      return;
    }
    send.mutate(
      { text, page: pathname, ...(rating ? { rating: Number(rating) } : {}) },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          setText('');
          setRating('');
          close();
        },
        onError: (error) => setProblem(apiErrorText(error)),
      },
    );
  };

  return (
    <>
      {/* On a phone, an icon named like the words it stands for. */}
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="shrink-0 whitespace-nowrap rounded-md p-1.5 text-sm text-slate-700 hover:bg-slate-100 sm:px-3"
      >
        <MessageSquare aria-hidden="true" className="h-5 w-5 sm:hidden" />
        <span className="max-sm:sr-only">Tell the team</span>
      </button>
      <Dialog
        title="Feedback for the CE Toolkit team"
        isOpen={isOpen}
        onClose={close}
        width="max-w-lg"
        footer={
          <>
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" form="feedback-form" disabled={send.isPending}>
              {send.isPending ? 'Sending…' : 'Send feedback'}
            </Button>
          </>
        }
      >
        <form id="feedback-form" aria-label="Feedback" onSubmit={submit} className="space-y-3" noValidate>
          <TextArea
            label="What works, what does not, what you miss"
            value={text}
            rows={6}
            maxLength={FEEDBACK_LIMITS.textLength}
            hint={`Mailed to the team with the page you are on (${pathname}).`}
            onChange={(event) => {
              setText(event.target.value);
              setProblem(null);
            }}
          />
          <Select
            label="How useful is the toolkit to you?"
            value={rating}
            options={RATINGS}
            onChange={(event) => setRating(event.target.value)}
          />
          {problem && (
            <p role="alert" className="text-sm text-red-700">
              {problem}
            </p>
          )}
        </form>
      </Dialog>
    </>
  );
}

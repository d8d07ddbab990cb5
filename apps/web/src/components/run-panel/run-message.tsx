import type { ChangeSet } from '@ce/contract';

/**
 * Where a run's Webex message (its summary) stands, on its page: sent, waiting and tried again, or given up with
 * why. Nothing for a run that sends none.
 */
export function RunMessage({ message }: { message: ChangeSet['message'] }) {
  if (!message) return null;
  if (message.status === 'sent') return <p className="text-sm text-slate-600">Its summary was sent to Webex.</p>;
  const why = message.error ? ` (${message.error})` : '';
  if (message.status === 'waiting')
    return (
      <p className="text-sm text-amber-800" data-testid="run-message">
        Its summary waits for Webex{why}: it is tried again, and sent once.
      </p>
    );
  return (
    <p className="text-sm text-red-700" role="status" data-testid="run-message">
      Its summary was not sent to Webex{why}. Its results are on this page.
    </p>
  );
}

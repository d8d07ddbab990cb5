import { BUDGET_WAIT_POLL_MS, budgetWaitLine, readingLine, type BudgetWait } from '@ce/contract';

/** A request of this page waiting for a customer's API budget, or reading many items, as the server last told it. */
export interface PendingWait {
  requestId: string;
  /** "Reading rule 140 of 380 · Waiting for Acme Corporation's API budget: about 12 s" (either, or both). */
  line: string;
  /** How far it read, for a bar that fills as it reads. */
  reading: BudgetWait['reading'];
  /** Ends the request: the browser stops waiting and the server stops its queued platform calls. */
  cancel(): void;
}

type Listener = () => void;

/**
 * The requests that wait for a customer's API budget, said in words where the person waits (the page, or the open
 * dialog) with a Cancel. Framework-free: the API client feeds it, a component shows it.
 */
export function createBudgetWaitStore(
  ask: (requestId: string) => Promise<BudgetWait | undefined> = askServer,
  schedule: typeof setTimeout = setTimeout,
) {
  let waits: readonly PendingWait[] = [];
  let dialogs = 0;
  const listeners = new Set<Listener>();
  const emit = () => listeners.forEach((listener) => listener());

  function put(wait: PendingWait | undefined, requestId: string) {
    const others = waits.filter((candidate) => candidate.requestId !== requestId);
    if (!wait && others.length === waits.length) return;
    waits = wait ? [...others, wait] : others;
    emit();
  }

  return {
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: (): readonly PendingWait[] => waits,
    /** Whether a dialog is open: it shows the waits itself, the page behind it does not. */
    dialogOpen: (): boolean => dialogs > 0,
    /** Counts an open dialog while it is open (the returned function when it closes). */
    openDialog(): () => void {
      dialogs += 1;
      emit();
      return () => {
        dialogs -= 1;
        emit();
      };
    },
    /**
     * Follows a request from the moment it is sent: after a second still unanswered, the server is asked every
     * second whether it waits for a budget, and for how long. The returned function ends the watch.
     */
    watch(requestId: string, cancel: () => void): () => void {
      let ended = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const poll = async () => {
        const wait = await ask(requestId).catch(() => undefined);
        if (ended) return;
        put(
          wait && (wait.waiting || wait.reading)
            ? { requestId, line: lineOf(wait), reading: wait.reading, cancel }
            : undefined,
          requestId,
        );
        timer = schedule(() => void poll(), BUDGET_WAIT_POLL_MS);
      };
      timer = schedule(() => void poll(), BUDGET_WAIT_POLL_MS);
      return () => {
        ended = true;
        clearTimeout(timer);
        put(undefined, requestId);
      };
    },
  };
}

function lineOf(wait: BudgetWait): string {
  const parts = [wait.reading ? readingLine(wait.reading) : null, wait.waiting ? budgetWaitLine(wait) : null];
  return parts.filter((part) => part !== null).join(' · ');
}

async function askServer(requestId: string): Promise<BudgetWait | undefined> {
  const response = await fetch(`/api/budget-waits/${requestId}`, {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  return response.ok ? ((await response.json()) as BudgetWait) : undefined;
}

export type BudgetWaitStore = ReturnType<typeof createBudgetWaitStore>;

/** The app's one store. */
export const budgetWaits = createBudgetWaitStore();

/** A request id the server accepts (x-request-id: 8 to 64 of letters, digits, `.`, `_`, `-`), unguessable. */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WATCH_EDIT, WATCH_MESSAGES, type Watch, type WatchSettings } from '@ce/contract';
import { EditWatchDialog } from './edit-watch-dialog';
import { aWatch } from './watch.fixture';

const watch: Watch = aWatch({
  runs: 'health',
  speakWhen: { anyChange: true, drift: false, scoreDrop: null, newFindingsAtLeast: null, weeklyQuietLine: false },
  schedule: { cadence: 'weekly', weekday: 3, time: '07:00', timeZone: 'Europe/Paris' },
  nextRunAt: '2026-12-02T06:00:00Z',
});

type Sent = { url: string; method: string; body: unknown };

beforeEach(() => {
  document.cookie = 'ce_csrf=test-csrf';
});
afterEach(() => vi.unstubAllGlobals());

/** The edit over a server that answers each PUT with `answer`; every request it was sent, and whether it closed. */
function openEdit(answer: () => Response) {
  const sent: Sent[] = [];
  const onClose = vi.fn();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      sent.push({ url, method: init?.method ?? 'GET', body });
      if (init?.method === 'PUT') return answer();
      return Response.json({ watches: [] });
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <EditWatchDialog watch={watch} isOpen onClose={onClose} />
    </QueryClientProvider>,
  );
  const dialog = screen.getByRole('dialog', { name: WATCH_EDIT.title(watch.organizationName) });
  return { dialog, sent, onClose, puts: () => sent.filter((call) => call.method === 'PUT') };
}

const fill = (scope: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });
const refusal = (status: number, code: string, message: string, fields?: { path: string; message: string }[]) =>
  Response.json({ error: { code, message, requestId: 'r-1', ...(fields ? { fields } : {}) } }, { status });

describe("A watch's edit", () => {
  it('opens with what the watch does, the organization read-only with its reason, and sends the change', async () => {
    const { dialog, puts, onClose } = openEdit(() => Response.json({ ...watch, runs: 'both' }));
    expect(within(dialog).getByTestId('watch-fixed')).toHaveProperty(
      'textContent',
      expect.stringContaining(WATCH_EDIT.organizationFixed),
    );
    expect(within(dialog).getByLabelText('How often')).toHaveProperty('value', 'weekly');
    expect(within(dialog).getByLabelText('On')).toHaveProperty('value', '3');
    expect(within(dialog).getByLabelText('Time zone')).toHaveProperty('value', 'Europe/Paris');
    expect(within(dialog).getByRole('checkbox', { name: 'Staging' })).toHaveProperty('checked', true);

    fill(dialog, 'How often', 'daily');
    fill(dialog, 'At', '18:30');
    fill(dialog, 'The score drops by at least (points)', '5');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Staging' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(puts()).toHaveLength(1);
    expect(puts()[0]?.url).toBe('/api/watches/w-1');
    expect(puts()[0]?.body).toEqual({
      accountGroups: [{ aid: '1', accountGroupName: 'Production' }],
      runs: 'health',
      schedule: { cadence: 'daily', weekday: null, time: '18:30', timeZone: 'Europe/Paris' },
      channel: { kind: 'owner' },
      speakWhen: { anyChange: true, drift: false, scoreDrop: 5, newFindingsAtLeast: null, weeklyQuietLine: false },
      monthlyReviewPack: false,
      // The version the form was opened from: a watch changed since refuses the edit (409 watch_changed).
      expectedUpdatedAt: watch.updatedAt,
    } satisfies WatchSettings);
  });

  it("shows the server's refusal beside its field, focused, and keeps what was typed", async () => {
    const { dialog, puts, onClose } = openEdit(() =>
      refusal(400, 'room_refused', WATCH_MESSAGES.roomNotMember, [
        { path: 'channel.roomId', message: WATCH_MESSAGES.roomNotMember },
      ]),
    );
    fill(dialog, 'Message to', 'room');
    fill(dialog, 'Webex room id', 'Y2lzY29zcGFyazovL3VzL1JPT00v');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const said = await within(dialog).findByText(WATCH_MESSAGES.roomNotMember);
    const room = within(dialog).getByLabelText('Webex room id');
    expect(room.getAttribute('aria-describedby')).toContain(said.id);
    // The busy Save let go of the focus: it lands on the field refused, not on the page behind.
    await waitFor(() => expect(document.activeElement).toBe(room));
    expect(room).toHaveProperty('value', 'Y2lzY29zcGFyazovL3VzL1JPT00v');
    expect(puts()).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('says a refusal about the whole watch above the form (409, 403, 404), focused, and stays open', async () => {
    let answer = refusal(409, 'no_token', WATCH_MESSAGES.noToken);
    const { dialog, onClose } = openEdit(() => answer);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe(WATCH_MESSAGES.noToken);
    await waitFor(() => expect(document.activeElement?.contains(alert)).toBe(true));
    answer = refusal(404, 'not_found', WATCH_MESSAGES.notFound);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(WATCH_MESSAGES.notFound));
    expect(within(dialog).getByLabelText('Time zone')).toHaveProperty('value', 'Europe/Paris');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('keeps a review pack duty shown when the watch is set to backups alone, refused beside it, nothing sent', async () => {
    const { dialog, puts } = openEdit(() => Response.json(watch));
    const duty = 'Build last month’s review pack on the first run of each month';
    fireEvent.click(within(dialog).getByRole('checkbox', { name: duty }));
    fill(dialog, 'What runs', 'backup');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(WATCH_MESSAGES.packNeedsHealth)).toBeTruthy();
    expect(within(dialog).getByRole('checkbox', { name: duty })).toHaveProperty('checked', true);
    expect(puts()).toEqual([]);
  });
});

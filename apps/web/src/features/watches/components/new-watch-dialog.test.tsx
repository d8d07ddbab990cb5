import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WATCH_DEFAULTS, WATCH_MESSAGES, type CreateWatch, type ReportAccountGroup } from '@ce/contract';
import { customers } from '../../../lib/customer';
import { setStorageOwner } from '../../../lib/user-storage';
import { PASTE_TOKEN } from '../watch-form-fields';
import { NewWatchDialog } from './new-watch-dialog';

const acme = { id: '9000', name: 'Acme Corporation' };
const group: ReportAccountGroup = {
  aid: '1234',
  accountGroupName: 'Production',
  organizationId: acme.id,
  organizationName: acme.name,
};
const staging: ReportAccountGroup = { ...group, aid: '5678', accountGroupName: 'Staging' };

type Sent = { url: string; method: string; body: unknown };

beforeEach(() => {
  document.cookie = 'ce_csrf=test-csrf';
});
afterEach(() => {
  act(() => void customers.clear({ everywhere: true }));
  vi.unstubAllGlobals();
});

/**
 * The dialog over a server that knows Acme's one group and takes any watch (or answers `created`); every request it
 * was sent.
 */
function openDialog(
  groups: ReportAccountGroup[] = [group],
  created = () => Response.json({ organizationName: acme.name, nextRunAt: null }, { status: 201 }),
) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      sent.push({ url, method: init?.method ?? 'GET', body });
      if (url === '/api/account-groups') return Response.json({ accountGroups: groups });
      if (url === '/api/watches' && init?.method === 'POST') return created();
      return Response.json({});
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <NewWatchDialog organization={acme} isOpen onClose={() => undefined} />
    </QueryClientProvider>,
  );
  return { dialog: screen.getByRole('dialog', { name: `Watch ${acme.name}` }), sent };
}

const fill = (scope: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });

describe('A new watch', () => {
  it('asks for the token in words before it reads any account group', async () => {
    const { dialog, sent } = openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Load account groups' }));
    expect(await within(dialog).findByText(PASTE_TOKEN)).toBeTruthy();
    expect(sent.filter((call) => call.url === '/api/account-groups')).toEqual([]);
  });

  it("holds its fields to the contract's rules, and sends the watch as the API takes it", async () => {
    const { dialog, sent } = openDialog();
    fill(dialog, 'Org Admin token', 'acme-org-admin-token');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Load account groups' }));
    expect(await within(dialog).findByLabelText('Production')).toBeTruthy();

    fill(dialog, 'Time zone', 'Mars/Olympus');
    fill(dialog, 'Message to', 'room');
    fill(dialog, 'Webex room id', 'not a room id');
    fill(dialog, 'Approved by (name)', 'Dana Scully');
    fill(dialog, 'Their email', 'dana@acme.example');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create watch' }));
    expect(
      await within(dialog).findByText('Unknown time zone: use a name such as Europe/Paris or America/New_York.'),
    ).toBeTruthy();
    expect(within(dialog).getByText('A Webex room id: letters, digits and - _ = + / : . only')).toBeTruthy();
    expect(sent.some((call) => call.url === '/api/watches')).toBe(false);

    fill(dialog, 'Time zone', 'europe/paris');
    fill(dialog, 'Webex room id', ' Y2lzY29zcGFyazovL3VzL1JPT00v ');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create watch' }));
    await waitFor(() => expect(sent.some((call) => call.url === '/api/watches')).toBe(true));
    const created = sent.find((call) => call.url === '/api/watches')?.body as CreateWatch;
    expect(created).toMatchObject({
      token: 'acme-org-admin-token',
      organization: acme,
      accountGroups: [{ aid: '1234', accountGroupName: 'Production' }],
      schedule: { cadence: 'weekly', weekday: 1, time: '07:00', timeZone: 'Europe/Paris' },
      channel: { kind: 'room', roomId: 'Y2lzY29zcGFyazovL3VzL1JPT00v' },
      consent: { contactName: 'Dana Scully', contactEmail: 'dana@acme.example', days: WATCH_DEFAULTS.tokenMaxDays },
    });
  });

  it('builds last month’s review pack only when asked, and never for a watch of backups alone', async () => {
    const { dialog, sent } = openDialog();
    fill(dialog, 'Org Admin token', 'acme-org-admin-token');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Load account groups' }));
    expect(await within(dialog).findByLabelText('Production')).toBeTruthy();
    const duty = 'Build last month’s review pack on the first run of each month';
    const checkbox = within(dialog).getByRole('checkbox', { name: duty });
    expect(checkbox).toHaveProperty('checked', false);
    fireEvent.click(checkbox);
    // A watch of backups alone measures nothing a pack is built from: the choice goes, and is not sent.
    fill(dialog, 'What runs', 'backup');
    expect(within(dialog).queryByRole('checkbox', { name: duty })).toBeNull();
    fill(dialog, 'What runs', 'health');
    expect(within(dialog).getByRole('checkbox', { name: duty })).toHaveProperty('checked', true);
    fill(dialog, 'Approved by (name)', 'Dana Scully');
    fill(dialog, 'Their email', 'dana@acme.example');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create watch' }));
    await waitFor(() => expect(sent.some((call) => call.url === '/api/watches')).toBe(true));
    expect(sent.find((call) => call.url === '/api/watches')?.body).toMatchObject({
      runs: 'health',
      monthlyReviewPack: true,
    });
  });

  it('with the customer chosen, shows its account groups at once, every one ticked', async () => {
    setStorageOwner('u-1');
    act(() =>
      customers.choose({
        token: 'acme-org-admin-token',
        organizationId: acme.id,
        organizationName: acme.name,
        groups: [group, staging],
      }),
    );
    const { dialog } = openDialog([group, staging]);
    expect(within(dialog).queryByRole('button', { name: 'Load account groups' })).toBeNull();
    expect(await within(dialog).findByRole('checkbox', { name: 'Production' })).toHaveProperty('checked', true);
    expect(within(dialog).getByRole('checkbox', { name: 'Staging' })).toHaveProperty('checked', true);
  });

  it('ticks every account group a pasted token reaches in the customer', async () => {
    const { dialog } = openDialog([group, staging]);
    fill(dialog, 'Org Admin token', 'acme-org-admin-token');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Load account groups' }));
    expect(await within(dialog).findByRole('checkbox', { name: 'Staging' })).toHaveProperty('checked', true);
    expect(within(dialog).getByRole('checkbox', { name: 'Production' })).toHaveProperty('checked', true);
  });

  it("says the server's refusal beside the field it names, focused, or else above the form, and stays open", async () => {
    let answer = Response.json(
      {
        error: {
          code: 'room_refused',
          message: WATCH_MESSAGES.roomNotMember,
          requestId: 'r-1',
          fields: [{ path: 'channel.roomId', message: WATCH_MESSAGES.roomNotMember }],
        },
      },
      { status: 400 },
    );
    const { dialog, sent } = openDialog([group], () => answer);
    fill(dialog, 'Org Admin token', 'acme-org-admin-token');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Load account groups' }));
    expect(await within(dialog).findByLabelText('Production')).toBeTruthy();
    fill(dialog, 'Message to', 'room');
    fill(dialog, 'Webex room id', 'Y2lzY29zcGFyazovL3VzL1JPT00v');
    fill(dialog, 'Approved by (name)', 'Dana Scully');
    fill(dialog, 'Their email', 'dana@acme.example');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create watch' }));
    const said = await within(dialog).findByText(WATCH_MESSAGES.roomNotMember);
    const room = within(dialog).getByLabelText('Webex room id');
    expect(room.getAttribute('aria-describedby')).toContain(said.id);
    await waitFor(() => expect(document.activeElement).toBe(room));
    expect(room).toHaveProperty('value', 'Y2lzY29zcGFyazovL3VzL1JPT00v');

    answer = Response.json(
      { error: { code: 'too_many', message: WATCH_MESSAGES.tooManyOfUser(20), requestId: 'r-2' } },
      { status: 409 },
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create watch' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe(WATCH_MESSAGES.tooManyOfUser(20));
    await waitFor(() => expect(document.activeElement?.contains(alert)).toBe(true));
    expect(sent.filter((call) => call.url === '/api/watches')).toHaveLength(2);
    expect(screen.getByRole('dialog', { name: `Watch ${acme.name}` })).toBe(dialog);
  });
});

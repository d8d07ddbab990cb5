import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WAIVER_MESSAGES, type Waiver, type WatchFindings } from '@ce/contract';
import { customers } from '../../../lib/customer';
import { setStorageOwner } from '../../../lib/user-storage';
import { WaiversSection } from './waivers-section';

const acme = { token: 'acme-org-admin-token', organizationId: '9000', organizationName: 'Acme Corporation' };
const finding = (itemKey: string, name: string): WatchFindings['findings'][number] => ({
  checkId: 'inactive-users',
  check: 'Inactive users',
  status: 'warn',
  itemKey,
  name,
  detail: 'never signed in',
});
const waiver: Waiver = {
  id: '6f1c1f6e-8a0b-4a43-9d4e-0f4c1d8d2b11',
  organizationId: '9000',
  checkId: 'inactive-users',
  itemKey: 'user:2',
  itemName: 'Bob',
  reason: 'Service account',
  expiresAt: '2027-11-30T00:00:00.000Z',
  createdBy: 'engineering@demo.local',
  createdAt: '2026-11-30T00:00:00.000Z',
};

beforeEach(() => {
  document.cookie = 'ce_csrf=test-csrf';
  setStorageOwner('u-1');
  act(() => customers.choose(acme));
});
afterEach(() => {
  act(() => void customers.clear({ everywhere: true }));
  vi.unstubAllGlobals();
});

type Sent = { url: string; method: string; body: unknown };
function serve(answers: (sent: Sent) => Response): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined };
      sent.push(call);
      return answers(call);
    }),
  );
  return sent;
}
const renderSection = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <WaiversSection organizationId="9000" watchId="w-1" />
    </QueryClientProvider>,
  );

describe("a customer's findings and waivers on its page", () => {
  it("sends the chosen customer's token with the list, the waiver and its end, and says the server's counts", async () => {
    const sent = serve(({ url, method }) => {
      if (url === '/api/watches/w-1/findings')
        return Response.json({ at: '2026-11-30T07:00:00.000Z', findings: [finding('user:1', 'Ann')] });
      if (url === '/api/watch-waivers/list') return Response.json({ waivers: [waiver] });
      if (url === '/api/watch-waivers' && method === 'POST') return Response.json(waiver, { status: 201 });
      return new Response(null, { status: 204 });
    });
    renderSection();
    expect((await screen.findByTestId('open-count')).textContent).toBe('Open (1)');
    await waitFor(() => expect(screen.getByTestId('waived-count').textContent).toBe('Waived (1)'));
    const listed = sent.find((call) => call.url === '/api/watch-waivers/list');
    expect(listed).toMatchObject({ method: 'POST', body: { organizationId: '9000', token: acme.token } });

    fireEvent.click(screen.getByRole('button', { name: 'Waive Ann (Inactive users)' }));
    fireEvent.change(await screen.findByLabelText('Why'), { target: { value: 'Kept on purpose' } });
    fireEvent.click(screen.getByRole('button', { name: 'Waive' }));
    await waitFor(() =>
      expect(sent.find((call) => call.url === '/api/watch-waivers' && call.method === 'POST')?.body).toMatchObject({
        organizationId: '9000',
        itemKey: 'user:1',
        token: acme.token,
      }),
    );

    fireEvent.click(screen.getByRole('button', { name: 'End waiver' }));
    await waitFor(() =>
      expect(sent.find((call) => call.method === 'DELETE')).toEqual({
        url: `/api/watch-waivers/${waiver.id}`,
        method: 'DELETE',
        body: { token: acme.token },
      }),
    );
  });

  it('says in words why the waivers stay closed to a caller tied to no watch and holding no token of it', async () => {
    act(() => void customers.clear({ everywhere: true }));
    const sent = serve(({ url }) =>
      url === '/api/watch-waivers/list'
        ? Response.json(
            { error: { code: 'not_tied_to_organization', message: WAIVER_MESSAGES.notTied } },
            { status: 403 },
          )
        : Response.json({ at: null, findings: [] }),
    );
    renderSection();
    expect((await screen.findByTestId('waivers-closed')).textContent).toBe(
      `${WAIVER_MESSAGES.cannotSee} Choose the customer with its token to see them.`,
    );
    // No count nor "none waived" that would read as the customer having none.
    expect(screen.queryByTestId('waived-count')).toBeNull();
    expect(screen.queryByText('No finding is waived for this customer.')).toBeNull();
    expect(sent.find((call) => call.url === '/api/watch-waivers/list')?.body).toEqual({ organizationId: '9000' });
  });
});

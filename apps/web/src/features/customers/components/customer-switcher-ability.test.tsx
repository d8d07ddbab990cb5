import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, renderHook, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReportAccountGroup, TokenAbility } from '@ce/contract';
import { customers } from '../../../lib/customer';
import { useTokenGroups } from '../../../lib/use-token-groups';
import { setStorageOwner } from '../../../lib/user-storage';
import { CustomerSwitcher } from './customer-switcher';

const ADMIN = 'acme-org-admin-token-0123456789abcdef';
const ADMIN_TOO = 'acme-org-admin-token-fedcba9876543210';
const READ_ONLY = 'acme-read-only-token-00000000aaaabbbb';
const GROUPS: ReportAccountGroup[] = [
  { aid: '1', accountGroupName: 'Acme - Production', organizationId: '9000', organizationName: 'Acme Corporation' },
];
const ability = (label: string, summary: string, canWrite: boolean): TokenAbility => ({
  isOrgAdmin: canWrite,
  canWrite,
  cannotRead: canWrite ? [] : ['View users'],
  label,
  summary,
});
const ABILITY: Record<string, TokenAbility> = {
  [ADMIN]: ability('Org Admin', 'Org Admin: reports and writing tools work.', true),
  [ADMIN_TOO]: ability('Org Admin', 'Org Admin: reports and writing tools work.', true),
  [READ_ONLY]: ability(
    'read-only',
    'read-only: reports work, writing tools will be refused. It cannot read: View users.',
    false,
  ),
};
const REFUSED: Record<string, string> = {
  hello: 'Invalid OAuth token. Please check your token and try again. This is not a token of the platform.',
  'sbx-revoked-acme-0123456789abcdef0123456789': 'Invalid OAuth token. Please check your token and try again. Revoked.',
};

/** The server: the token check of the known tokens, a 401 in the server's words for the others. */
function serve() {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (path: string, init: RequestInit) => {
    if (path.startsWith('/api/customers/') || path === '/api/account-groups') asked.push(path);
    const { token } = JSON.parse(String(init.body ?? '{}')) as { token?: string };
    const known = token ? ABILITY[token] : undefined;
    if (path === '/api/customers/token-check' && known) return Response.json({ accountGroups: GROUPS, ability: known });
    if (path === '/api/account-groups' && known) return Response.json({ accountGroups: GROUPS });
    return Response.json(
      { error: { code: 'invalid_platform_token', message: REFUSED[token ?? ''] ?? 'refused' } },
      { status: 401 },
    );
  });
  return asked;
}

const client = () => new QueryClient({ defaultOptions: { mutations: { retry: false } } });
function renderSwitcher() {
  render(
    <QueryClientProvider client={client()}>
      <MemoryRouter>
        <CustomerSwitcher />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
const dialog = () => screen.getByRole('dialog', { name: 'Customer' });
function paste(token: string) {
  if (!screen.queryByRole('dialog', { name: 'Customer' })) fireEvent.click(screen.getByTestId('customer-switcher'));
  fireEvent.change(within(dialog()).getByLabelText('Org Admin token'), { target: { value: token } });
  fireEvent.click(within(dialog()).getByRole('button', { name: 'Use this token' }));
}

beforeEach(() => setStorageOwner('user-1'));
afterEach(() => {
  customers.clear({ everywhere: true });
  localStorage.clear();
  setStorageOwner(null);
  vi.unstubAllGlobals();
});

describe('the customer switcher says what a token may do', () => {
  it('keeps the dialog open on a read-only token, saying reports work and writing tools will be refused', async () => {
    serve();
    renderSwitcher();
    paste(READ_ONLY);
    await vi.waitFor(() => expect(screen.getByTestId('customer-switcher-name').textContent).toBe('Acme Corporation'));
    const chosen = within(dialog()).getByRole('region', { name: 'Chosen customer' });
    expect(chosen.textContent).toContain('Working for Acme Corporation · token …aaaabbbb · read-only');
    expect(within(chosen).getByRole('status').textContent).toBe(
      'read-only: reports work, writing tools will be refused. It cannot read: View users.',
    );
  });

  it('says which failure it was, in the server’s words', async () => {
    serve();
    renderSwitcher();
    paste('hello');
    expect(await within(dialog()).findByText(REFUSED.hello ?? '')).toBeTruthy();
    paste('sbx-revoked-acme-0123456789abcdef0123456789');
    expect(
      await within(dialog()).findByText(REFUSED['sbx-revoked-acme-0123456789abcdef0123456789'] ?? ''),
    ).toBeTruthy();
    expect(screen.queryByTestId('customer-switcher-name')).toBeNull();
  });

  it('holds one recent entry per organization and ability, each told apart in words', async () => {
    serve();
    renderSwitcher();
    paste(ADMIN);
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Customer' })).toBeNull());
    paste(ADMIN_TOO);
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Customer' })).toBeNull());
    paste(READ_ONLY);
    await within(dialog()).findByRole('status');
    const recent = within(dialog()).getByRole('region', { name: 'Recent customers' });
    // The first admin token was replaced by the second (they would read alike); the read-only one is the current.
    expect(
      within(recent)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Acme Corporation · token …76543210 · Org Admin']);
    expect(customers.getSnapshot().recent.map((customer) => customer.token)).toEqual([READ_ONLY, ADMIN_TOO]);
  });

  it('lets a tool opened for the chosen customer go on at once, its token checked unwaited', async () => {
    const asked = serve();
    renderSwitcher();
    paste(ADMIN);
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Customer' })).toBeNull());
    // From now on the server's account groups read answers only when the test says (the token was revoked).
    let answer: (response: Response) => void = () => undefined;
    const pending = new Promise<Response>((resolve) => (answer = resolve));
    const served = vi.mocked(fetch);
    vi.stubGlobal('fetch', (path: string, init: RequestInit) =>
      path === '/api/account-groups' ? (asked.push(path), pending) : served(path, init),
    );
    asked.length = 0;
    const queryClient = client();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useTokenGroups(), { wrapper });
    // The groups the switcher read, while the platform has not answered yet.
    await expect(result.current.load(ADMIN)).resolves.toEqual(GROUPS);
    expect(asked).toEqual(['/api/account-groups']);
    await vi.waitFor(() => expect(result.current.groups).toEqual(GROUPS));
    answer(Response.json({ error: { code: 'invalid_platform_token', message: 'refused' } }, { status: 401 }));
    await vi.waitFor(() => expect(result.current.groups).toBeNull());
  });
});

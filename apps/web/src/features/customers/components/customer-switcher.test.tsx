import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReportAccountGroup, TokenAbility } from '@ce/contract';
import { customers } from '../../../lib/customer';
import { setStorageOwner } from '../../../lib/user-storage';
import { CustomerSwitcher } from './customer-switcher';

const TOKEN = 'acme-org-admin-token-0123456789abcdef';
const group = (aid: string, accountGroupName: string): ReportAccountGroup => ({
  aid,
  accountGroupName,
  organizationId: '9000',
  organizationName: 'Acme Corporation',
});

const ORG_ADMIN: TokenAbility = {
  isOrgAdmin: true,
  canWrite: true,
  cannotRead: [],
  label: 'Org Admin',
  summary: 'Org Admin: reports and writing tools work.',
};

function renderSwitcher(groups: ReportAccountGroup[]) {
  vi.stubGlobal('fetch', async (path: string) =>
    path === '/api/customers/token-check'
      ? Response.json({ accountGroups: groups, ability: ORG_ADMIN })
      : new Response('{}'),
  );
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <CustomerSwitcher />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Pastes a token in the switcher, waits until it is the chosen customer, and opens the switcher again. */
async function paste(token: string) {
  fireEvent.click(screen.getByTestId('customer-switcher'));
  const dialog = screen.getByRole('dialog', { name: 'Customer' });
  fireEvent.change(within(dialog).getByLabelText('Org Admin token'), { target: { value: token } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Use this token' }));
  await vi.waitFor(() => expect(screen.getByTestId('customer-switcher-name').textContent).toBe('Acme Corporation'));
  fireEvent.click(screen.getByTestId('customer-switcher'));
}

beforeEach(() => setStorageOwner('user-1'));
afterEach(() => {
  customers.clear({ everywhere: true });
  setStorageOwner(null);
  vi.unstubAllGlobals();
});

describe('the customer switcher', () => {
  it('names the organization and the account groups the pasted token sees there', async () => {
    renderSwitcher([group('1', 'Acme - Production'), group('2', 'Acme - Staging')]);
    await paste(TOKEN);
    const chosen = screen.getByRole('region', { name: 'Chosen customer' });
    expect(chosen.textContent).toContain('Working for Acme Corporation · token …89abcdef · Org Admin');
    expect(within(chosen).getByTestId('customer-ability').textContent).toBe(
      'Org Admin: reports and writing tools work.',
    );
    expect(within(chosen).getByTestId('customer-account-groups').textContent).toBe(
      '2 account groups: Acme - Production, Acme - Staging',
    );
  });

  it('names six account groups and counts the rest', async () => {
    renderSwitcher(Array.from({ length: 9 }, (_, index) => group(String(index), `Acme - Site ${index + 1}`)));
    await paste(TOKEN);
    expect(screen.getByTestId('customer-account-groups').textContent).toBe(
      '9 account groups: Acme - Site 1, Acme - Site 2, Acme - Site 3, Acme - Site 4, Acme - Site 5, Acme - Site 6 and 3 more',
    );
  });
});

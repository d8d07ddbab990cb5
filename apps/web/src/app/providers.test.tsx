import { QueryClient } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionUser } from '@ce/contract';
import { toast } from '../components/ui/toast-store';
import { announcePlatformTokenRefused } from '../lib/api-client';
import { customers } from '../lib/customer';
import { recentTokens, rememberToken, TOKEN_LISTS } from '../lib/recent-tokens';
import { sessionQueryKey } from '../lib/session';
import { Providers } from './providers';

const user = (id: string, email: string): SessionUser => ({ id, email, name: null, locale: 'TAM', role: 'TAM' });
const tam = user('u-tam', 'tam@demo.local');
const proserv = user('u-proserv', 'proserv@demo.local');

/** Sets the session's answer; resolves once the query cache has told its subscribers (the providers' first). */
function sessionIs(queryClient: QueryClient, answer: SessionUser | null): Promise<void> {
  return new Promise((resolve) => {
    const stop = queryClient.getQueryCache().subscribe(() => {
      stop();
      resolve();
    });
    queryClient.setQueryData(sessionQueryKey, answer);
  });
}

/** The app's providers with a session the test sets, and a failure told to whoever is signed in. */
async function signedIn(first: SessionUser) {
  const queryClient = new QueryClient();
  render(
    <Providers queryClient={queryClient}>
      <p>page</p>
    </Providers>,
  );
  await sessionIs(queryClient, first);
  act(() => {
    toast.show('error', 'Acme: each failure and its reason are in the run’s results.', {
      title: 'Create tests: 1 of 1 failed',
      endsWithSession: true,
    });
  });
  const told = () => screen.queryByRole('alert');
  await waitFor(() => expect(told()).not.toBeNull());
  return { queryClient, told };
}

describe('Providers', () => {
  // The toast store is the app's one: each test starts without the toasts of the one before.
  afterEach(() => toast.getSnapshot().forEach((told) => toast.dismiss(told.id)));

  it("keep a failure told while the same user's session is read again", async () => {
    const { queryClient, told } = await signedIn(tam);
    await sessionIs(queryClient, { ...tam });
    expect(told()?.textContent).toContain('Create tests: 1 of 1 failed');
  });

  it('take a failure told to a user away when their session ends', async () => {
    const { queryClient, told } = await signedIn(tam);
    await sessionIs(queryClient, null);
    await waitFor(() => expect(told()).toBeNull());
  });

  it('take a failure told to a user away when another user signs in on the browser', async () => {
    const { queryClient, told } = await signedIn(tam);
    await sessionIs(queryClient, proserv);
    await waitFor(() => expect(told()).toBeNull());
  });

  it('forget a refused token in every tool, and clear the customer only when it was its token', async () => {
    const queryClient = new QueryClient();
    render(
      <Providers queryClient={queryClient}>
        <p>page</p>
      </Providers>,
    );
    await sessionIs(queryClient, tam);
    const acme = { token: 'acme-token', organizationId: '1', organizationName: 'Acme Corporation' };
    for (const list of TOKEN_LISTS) for (const token of ['acme-token', 'other-token']) rememberToken(list, token);
    act(() => customers.choose(acme));

    // Another token than the customer's, refused (pasted in a tool with "Use another token"): only it goes.
    act(() => announcePlatformTokenRefused({ token: 'other-token' }));
    for (const list of TOKEN_LISTS) expect(recentTokens(list), list).toEqual(['acme-token']);
    expect(customers.getSnapshot().current).toEqual(acme);
    expect(screen.queryByRole('alert')).toBeNull();

    // The customer's own: cleared, forgotten everywhere, and said so.
    act(() => announcePlatformTokenRefused({ token: 'acme-token' }));
    for (const list of TOKEN_LISTS) expect(recentTokens(list), list).toEqual([]);
    expect(customers.getSnapshot().current).toBeNull();
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('The platform refused the token for Acme Corporation'),
    );
  });
});

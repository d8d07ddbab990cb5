import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReportAccountGroup } from '@ce/contract';
import { toast } from '../components/ui/toast-store';
import { soleOrganization, useTokenGroups } from './use-token-groups';
import { useCustomer } from './use-customer';

const group = (
  aid: string,
  organizationId: string,
  organizationName = `Org ${organizationId}`,
): ReportAccountGroup => ({
  aid,
  accountGroupName: `Group ${aid}`,
  organizationId,
  organizationName,
});
const ACME = [group('1', 'acme', 'Acme'), group('2', 'acme', 'Acme'), group('3', 'globex', 'Globex')];

/** The server's POST /api/account-groups: the groups of each known token, a 401 for any other. */
function serve(byToken: Record<string, ReportAccountGroup[]>) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (path: string, init: RequestInit) => {
    if (path !== '/api/account-groups') return new Response('{}', { status: 200 });
    const { token } = JSON.parse(String(init.body)) as { token: string };
    asked.push(token);
    const groups = byToken[token];
    return groups
      ? Response.json({ accountGroups: groups })
      : Response.json({ error: { code: 'platform_unauthorized', message: 'The token was refused' } }, { status: 401 });
  });
  return asked;
}

function wrapper({ children }: { children: ReactNode }) {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

afterEach(() => {
  vi.unstubAllGlobals();
  for (const shown of toast.getSnapshot()) toast.dismiss(shown.id);
});

describe('the token-to-groups hook every tool uses', () => {
  it('reads the groups a token sees, its organizations once each, and the groups of one organization', async () => {
    serve({ 'token-acme': ACME });
    const { result } = renderHook(() => useTokenGroups(), { wrapper });
    expect(result.current.groups).toBeNull();
    let loaded: ReportAccountGroup[] = [];
    await act(async () => {
      loaded = await result.current.load('token-acme');
    });
    expect(loaded).toEqual(ACME);
    expect(result.current.organizations).toEqual([
      { value: 'acme', label: 'Acme' },
      { value: 'globex', label: 'Globex' },
    ]);
    expect(result.current.inOrganization('acme').map((shown) => shown.aid)).toEqual(['1', '2']);
  });

  it('rejects a refused token and keeps nothing of what an earlier token saw', async () => {
    serve({ 'token-acme': ACME });
    const { result } = renderHook(() => useTokenGroups(), { wrapper });
    await act(async () => {
      await result.current.load('token-acme');
    });
    await act(async () => {
      await expect(result.current.load('token-refused')).rejects.toMatchObject({ status: 401 });
    });
    expect(result.current.groups).toBeNull();
    expect(result.current.organizations).toEqual([]);
  });

  it('chooses the organization for the user only when the token sees just one', () => {
    expect(soleOrganization([group('1', 'acme'), group('2', 'acme')])).toBe('acme');
    expect(soleOrganization(ACME)).toBe('');
    expect(soleOrganization([])).toBe('');
  });
});

describe('a customer (the writing tools’ token step on that hook)', () => {
  it('says a missing token in the tools’ words without calling the server', async () => {
    const asked = serve({});
    const { result } = renderHook(() => useCustomer('alerts-migration'), { wrapper });
    await act(async () => {
      expect(await result.current.load()).toBeNull();
    });
    expect(asked).toEqual([]);
    expect(toast.getSnapshot().map(({ message }) => message)).toHaveLength(1);
  });

  it('picks the first organization of the groups, and forgets them when the token changes', async () => {
    serve({ 'token-acme': ACME });
    const { result } = renderHook(() => useCustomer('alerts-migration'), { wrapper });
    act(() => result.current.setToken(' token-acme '));
    await act(async () => {
      await result.current.load();
    });
    expect(result.current.organization).toEqual({ id: 'acme', name: 'Acme' });
    expect(result.current.inOrganization.map((shown) => shown.aid)).toEqual(['1', '2']);
    act(() => result.current.setToken('another'));
    expect(result.current.groups).toBeNull();
    expect(result.current.organization).toBeNull();
  });

  it('tells the tool when the platform refused the token (the bulk tools’ Unauthorized toast)', async () => {
    serve({});
    const onRefused = vi.fn();
    const { result } = renderHook(() => useCustomer('bulk-tests', { onRefused }), { wrapper });
    act(() => result.current.setToken('token-refused'));
    await act(async () => {
      expect(await result.current.load()).toBeNull();
    });
    await waitFor(() => expect(onRefused).toHaveBeenCalledTimes(1));
  });
});

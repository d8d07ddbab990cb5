import { beforeEach, describe, expect, it } from 'vitest';
import { setStorageOwner } from './user-storage';
import { createCustomerStore } from './customer';
import { recentTokens, rememberToken, TOKEN_LISTS, tokenChipLabel } from './recent-tokens';

class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe('recent tokens', () => {
  let storage: MemoryStorage;
  beforeEach(() => {
    storage = new MemoryStorage();
    setStorageOwner('user-a', storage);
  });

  it('keeps at most five, newest first, each once, per list', () => {
    for (const token of ['t1', 't2', 't3', 't4', 't5', 't6', 't3']) rememberToken('bulk-tests', token, storage);
    expect(recentTokens('bulk-tests', storage)).toEqual(['t3', 't6', 't5', 't4', 't2']);
    expect(recentTokens('agent-wizard', storage)).toEqual([]);
  });

  it('survives a damaged entry and shows the last eight characters', () => {
    storage.setItem('ce.user.user-a.recent-tokens.bulk-tests', '{not json');
    expect(recentTokens('bulk-tests', storage)).toEqual([]);
    expect(tokenChipLabel('sbx-org-admin-acme-0123456789abcdef')).toBe('…89abcdef');
  });

  it('belong to the signed-in user: gone when the session ends, never shown to the next user', () => {
    rememberToken('bulk-tests', 'token-of-a', storage);
    setStorageOwner('user-b', storage);
    expect(recentTokens('bulk-tests', storage)).toEqual([]);
    expect(storage.length).toBe(0);
    rememberToken('bulk-tests', 'token-of-b', storage);
    setStorageOwner(null, storage);
    expect(storage.length).toBe(0);
    rememberToken('bulk-tests', 'kept-by-nobody', storage);
    expect(storage.length).toBe(0);
  });

  it('forgets a customer\'s token in every list, on "Forget this customer" and when the platform refuses it', () => {
    const store = createCustomerStore(() => storage);
    const acme = { token: 'acme-token', organizationId: '1', organizationName: 'Acme' };
    const globex = { token: 'globex-token', organizationId: '2', organizationName: 'Globex' };
    for (const list of TOKEN_LISTS) for (const { token } of [acme, globex]) rememberToken(list, token, storage);

    store.choose(acme);
    store.clear({ everywhere: true });
    for (const list of TOKEN_LISTS) expect(recentTokens(list, storage), list).toEqual(['globex-token']);

    store.choose(globex);
    expect(store.refused('globex-token')).toEqual(globex);
    for (const list of TOKEN_LISTS) expect(recentTokens(list, storage), list).toEqual([]);
    expect(store.getSnapshot()).toEqual({ current: null, recent: [] });
  });

  it('keeps the lists when a customer is only set aside (no customer chosen)', () => {
    const store = createCustomerStore(() => storage);
    rememberToken('bulk-tests', 'acme-token', storage);
    store.choose({ token: 'acme-token', organizationId: '1', organizationName: 'Acme' });
    store.clear();
    expect(recentTokens('bulk-tests', storage)).toEqual(['acme-token']);
  });
});

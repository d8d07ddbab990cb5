import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { BOOT_DATA_ELEMENT_ID, type AppInfo, type SessionUser } from '@ce/contract';
import { seedFromPage, sessionQueryKey } from './session';
import { readUserItem, setStorageOwner, writeUserItem } from './user-storage';

const appInfo: AppInfo = {
  supportEmail: 'support@example.com',
  demoMode: false,
  passwordPolicy: { minLength: 8, lowercase: true, uppercase: true, number: true, symbol: true },
  sso: { enabled: false, label: 'Sign in with SSO' },
  passwordResetEnabled: true,
};
const user: SessionUser = { id: 'u1', email: 'tam@example.com', name: 'Tam', locale: 'TAM', role: 'TAM' };

function pageWith(boot: unknown) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = BOOT_DATA_ELEMENT_ID;
  element.textContent = typeof boot === 'string' ? boot : JSON.stringify(boot);
  document.head.append(element);
}

describe('starting from what the page brought', () => {
  afterEach(() => {
    document.getElementById(BOOT_DATA_ELEMENT_ID)?.remove();
    setStorageOwner(null);
  });

  it('knows the signed-in user and the app info before any call, and reads what the user kept', () => {
    // Kept by this user in an earlier visit; nobody is known signed in yet.
    localStorage.setItem('ce.user.u1.customer', 'kept');
    pageWith({ user, appInfo });
    const queryClient = new QueryClient();
    seedFromPage(queryClient);
    expect(queryClient.getQueryData(sessionQueryKey)).toEqual(user);
    expect(queryClient.getQueryData(['app-info'])).toEqual(appInfo);
    expect(readUserItem('customer')).toBe('kept');
  });

  it('knows nobody is signed in, and keeps nothing of an earlier user', () => {
    setStorageOwner('u1');
    writeUserItem('customer', 'kept');
    pageWith({ user: null, appInfo });
    const queryClient = new QueryClient();
    seedFromPage(queryClient);
    expect(queryClient.getQueryData(sessionQueryKey)).toBeNull();
    setStorageOwner('u1');
    expect(readUserItem('customer')).toBeNull();
  });

  it('asks as before when the page has no user, no data, or data it cannot read', () => {
    for (const boot of [{ appInfo }, '{not json', { something: 'else' }, undefined]) {
      if (boot !== undefined) pageWith(boot);
      const queryClient = new QueryClient();
      seedFromPage(queryClient);
      expect(queryClient.getQueryData(sessionQueryKey), JSON.stringify(boot)).toBeUndefined();
      document.getElementById(BOOT_DATA_ELEMENT_ID)?.remove();
    }
  });
});

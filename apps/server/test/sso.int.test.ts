import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, TestClient, type TestApp } from './build-test-app.js';
import { signInWithSso, startProvider } from './oidc-provider.js';

describe('single sign-on against an OpenID provider', () => {
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let testApp: TestApp;

  beforeAll(async () => {
    provider = await startProvider({
      'ana.sso@example.com': { email: 'ana.sso@example.com', email_verified: true, name: 'Ana Sso', locale: 'TAM' },
      'unverified@example.com': { email: 'unverified@example.com', email_verified: false, locale: 'TAM' },
      // Someone at the provider claims the email of a local password account.
      'impostor-of-tam': { email: 'tam@demo.local', email_verified: true, locale: 'Super User' },
      'wordy@example.com': { email: 'wordy@example.com', email_verified: true, locale: 'xx Super User xx' },
    });
    testApp = await createTestApp('pglite', provider.env);
  });
  afterAll(async () => {
    await testApp.close();
    await provider.close();
  });

  const userRow = async (email: string) => {
    const { rows } = await testApp.database.sql.executeSql(
      'select locale, sso_subject, sso_link_allowed from users where email = $1',
      [email],
    );
    return rows[0] as { locale: string | null; sso_subject: string | null; sso_link_allowed: boolean } | undefined;
  };

  it('signs in a verified identity with the role its locale names exactly', async () => {
    const browser = new TestClient(testApp.app);
    expect(await signInWithSso(testApp, browser, 'ana.sso@example.com')).toBe('/home');
    const session = (await browser.request({ method: 'GET', url: '/api/session' })).json();
    expect(session.user).toMatchObject({ email: 'ana.sso@example.com', role: 'TAM', name: 'Ana Sso' });
    expect((await userRow('ana.sso@example.com'))?.sso_subject).toBe(`${provider.issuer}|ana.sso@example.com`);
  });

  it('refuses an identity whose provider has not verified the email, and creates no account', async () => {
    const browser = new TestClient(testApp.app);
    expect(await signInWithSso(testApp, browser, 'unverified@example.com')).toBe('/login?error=sso_email_unverified');
    expect((await browser.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    expect(await userRow('unverified@example.com')).toBeUndefined();
  });

  it('never links an identity to a local password account of the same email, unless a Super User allowed it', async () => {
    const browser = new TestClient(testApp.app);
    expect(await signInWithSso(testApp, browser, 'impostor-of-tam')).toBe('/login?error=sso_account_exists');
    expect((await browser.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    expect(await userRow('tam@demo.local')).toEqual({ locale: 'TAM', sso_subject: null, sso_link_allowed: false });
    // The local account still signs in with its password.
    await signedInClient(testApp.app, 'tam@demo.local');

    await testApp.services.users.allowSso('tam@demo.local');
    expect(await signInWithSso(testApp, browser, 'impostor-of-tam')).toBe('/home');
    expect(await userRow('tam@demo.local')).toMatchObject({
      sso_subject: `${provider.issuer}|impostor-of-tam`,
      sso_link_allowed: false,
    });
  });

  it('gives the User role to a locale that only contains a role name, and logs it', async () => {
    const browser = new TestClient(testApp.app);
    expect(await signInWithSso(testApp, browser, 'wordy@example.com')).toBe('/home');
    const session = (await browser.request({ method: 'GET', url: '/api/session' })).json();
    expect(session.user).toMatchObject({ email: 'wordy@example.com', role: 'User' });
    expect(testApp.logs.some((line) => line.includes('SSO role claim names no known role'))).toBe(true);
  });

  it('sends the browser to the provider to end its session at sign-out, with the ID token as hint', async () => {
    const browser = new TestClient(testApp.app);
    await signInWithSso(testApp, browser, 'ana.sso@example.com');
    const signOut = await browser.request({ method: 'DELETE', url: '/api/session' });
    const url = new URL(signOut.json().providerLogoutUrl);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe('http://app.test/login');
    expect(url.searchParams.get('id_token_hint')).toMatch(/^ey/);
  });
});

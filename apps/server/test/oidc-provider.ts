import { createServer, type AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { TestApp, TestClient } from './build-test-app.js';

export const APP_URL = 'http://app.test';
const CLIENT_ID = 'ce-toolkit-int';
const CLIENT_SECRET = 'int-client-secret-not-for-production';

/** A real OpenID provider on a free port; `accounts` maps the login typed at its form to the claims it issues. */
export async function startProvider(accounts: Record<string, Record<string, unknown>>) {
  // The issuer names its port, so find a free one first.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${APP_URL}/api/sso/callback`],
        post_logout_redirect_uris: [`${APP_URL}/login`],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'locale'] },
    findAccount: async (_context, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, ...accounts[id] }),
    }),
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  });
  const listening = provider.listen(port);
  await new Promise((resolve) => listening.once('listening', resolve));
  return {
    issuer,
    env: {
      PUBLIC_URL: APP_URL,
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_ALLOW_INSECURE: 'true',
    },
    close: () =>
      new Promise<void>((resolve) => {
        listening.closeAllConnections();
        listening.close(() => resolve());
      }),
  };
}

/** A browser at the provider: follows redirects by hand, keeps its cookies, fills its dev forms. */
class ProviderBrowser {
  private readonly cookies = new Map<string, string>();

  async go(url: string, form?: Record<string, string>): Promise<Response> {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }
}

/**
 * Signs in through the provider as `login`, the way a browser would: the app's /api/sso/login, the
 * provider's login and consent forms, then the app's callback. Returns where the app sent the browser.
 */
export async function signInWithSso(testApp: TestApp, client: TestClient, login: string): Promise<string> {
  const start = await client.request({ method: 'GET', url: '/api/sso/login' });
  let location = String(start.headers.location ?? '');
  const browser = new ProviderBrowser();
  for (let step = 0; step < 12; step++) {
    if (location.startsWith(`${APP_URL}/api/sso/callback`)) {
      const back = await client.request({ method: 'GET', url: location.slice(APP_URL.length) });
      return String(back.headers.location ?? '');
    }
    let response = await browser.go(location);
    if (response.status === 200) {
      const page = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1] ?? '';
      const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1] ?? '';
      response = await browser.go(
        new URL(action, location).href,
        prompt === 'login' ? { prompt, login, password: 'any' } : { prompt },
      );
    }
    location = new URL(response.headers.get('location') ?? '', location).href;
  }
  throw new Error(`the sign-in at the provider did not come back to the app (last at ${location})`);
}

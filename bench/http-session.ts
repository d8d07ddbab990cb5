/** What the benches that drive the product over HTTP share: a signed-in user, as the browser would be. */
import { CSRF_COOKIE, CSRF_HEADER } from '@ce/contract';

export type Call = <T>(method: string, url: string, body?: unknown) => Promise<{ status: number; body: T }>;

/** Signs `email` in at `origin` and answers a caller that keeps the cookies and sends the anti-forgery header. */
export async function signedInSession(origin: string, email: string, password: string): Promise<Call> {
  const cookies: Record<string, string> = {};
  const call: Call = async <T>(method: string, url: string, body?: unknown) => {
    const response = await fetch(`${origin}${url}`, {
      method,
      headers: {
        cookie: Object.entries(cookies)
          .map(([name, value]) => `${name}=${value}`)
          .join('; '),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method === 'GET' ? {} : { [CSRF_HEADER]: cookies[CSRF_COOKIE] ?? '' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const [name = '', ...value] = pair.split('=');
      cookies[name.trim()] = value.join('=');
    }
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
  await call('GET', '/api/app-info');
  const signedIn = await call('POST', '/api/session', { email, password });
  if (signedIn.status !== 200) throw new Error(`sign-in as ${email} failed: ${signedIn.status}`);
  return call;
}

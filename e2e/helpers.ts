import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, request, test, type Frame, type Page } from './fixtures.js';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Role } from '@ce/contract';

/** The WCAG 2.0, 2.1 and 2.2 A and AA rules axe checks. A rule left out is named here with its reason; none is today. */
export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password';

/**
 * Signs in as the web app does, without its form (the identity, routing and shell specs use the form itself),
 * and opens the dashboard.
 */
export async function signIn(
  page: Page,
  email: string,
  password = DEMO_PASSWORD,
  landing = '/home/dashboard',
): Promise<void> {
  await page.request.get('/api/app-info');
  const response = await page.request.post('/api/session', { data: { email, password }, headers: await csrf(page) });
  expect(response.status(), await response.text()).toBe(200);
  // One page load: the page the test starts on.
  await page.goto(landing);
  await expect(menu(page)).toBeVisible();
}

/** Signs in through the login page's form, as a person does. */
export async function signInThroughForm(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/home\/dashboard$/);
}

export const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
export const groupButton = (page: Page, name: 'Reporting' | 'Tools' | 'Support') =>
  menu(page).getByRole('button', { name, exact: true });

export const dialog = (page: Page) => page.getByRole('dialog');

/** A platform token of the sandbox, as its token listing and its organization copies answer it. */
export interface SandboxToken {
  token: string;
  kind: 'org-admin' | 'read-only' | 'revoked';
  organizationId: string;
  organizationName: string;
}

const copies = new Map<string, Promise<SandboxToken[]>>();

/**
 * The tokens of this test's own copy of the sandbox organizations (made on its first ask): the demo world's
 * names and data under ids, tokens and a rate budget no other test uses, so tests run side by side.
 */
export function sandboxTokens(page: Page): Promise<SandboxToken[]> {
  const { testId } = test.info();
  let tokens = copies.get(testId);
  if (!tokens) {
    tokens = page.request.post('/sandbox/te/organization-copies').then(async (response) => {
      expect(response.status(), 'a copy of the sandbox organizations').toBe(201);
      return ((await response.json()) as { tokens: SandboxToken[] }).tokens;
    });
    copies.set(testId, tokens);
  }
  return tokens;
}

/** This test's token of a kind (the Org Admin's is its copy's first organization's, as in the demo world). */
export async function sandboxToken(page: Page, kind: SandboxToken['kind'], organizationName?: string) {
  const token = (await sandboxTokens(page)).find(
    (candidate) => candidate.kind === kind && (!organizationName || candidate.organizationName === organizationName),
  );
  if (!token) throw new Error(`no ${kind} token in the sandbox copy`);
  return token;
}

/** This test's Org Admin token and its organization (the copy of the default seed's first organization). */
export const sandboxOrgAdmin = (page: Page) => sandboxToken(page, 'org-admin');

/**
 * Switches a platform failure scenario on (or off, with null) for this test's organizations only, so
 * tests side by side never meet each other's failures.
 */
export async function setScenario(page: Page, scenario: Record<string, unknown> | null): Promise<void> {
  const organizations = new Set((await sandboxTokens(page)).map((token) => token.organizationId));
  for (const organizationId of organizations) {
    const url = `/sandbox/te/scenario?organizationId=${organizationId}`;
    const response = scenario ? await page.request.put(url, { data: scenario }) : await page.request.delete(url);
    expect(response.status()).toBe(200);
  }
}

/** The anti-forgery header of the page's session, for calls a spec makes to the product's API itself. */
export async function csrf(page: Page): Promise<Record<string, string>> {
  const cookie = (await page.context().cookies()).find((candidate) => candidate.name.endsWith('ce_csrf'));
  return { 'x-csrf-token': decodeURIComponent(cookie?.value ?? '') };
}

/**
 * Signs in (with no form: through the API, as the web app does) as a user made for this test alone, invited
 * by the Super User: its reports, runs, notifications and sessions are nobody else's. Returns its email and password.
 */
export async function signInAsNewUser(
  page: Page,
  role: Role,
  landing = '/home/dashboard',
): Promise<{ email: string; password: string }> {
  const email = `e2e-${randomUUID().slice(0, 8)}@example.com`;
  const password = `E2e-Pass-${randomUUID()}`;
  const admin = await request.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    await admin.get('/api/app-info');
    const adminCsrf = async () => {
      const cookie = (await admin.storageState()).cookies.find((candidate) => candidate.name.endsWith('ce_csrf'));
      return { 'x-csrf-token': decodeURIComponent(cookie?.value ?? '') };
    };
    const session = await admin.post('/api/session', {
      data: { email: 'superuser@demo.local', password: DEMO_PASSWORD },
      headers: await adminCsrf(),
    });
    expect(session.status(), await session.text()).toBe(200);
    const invited = await admin.post('/api/users', {
      data: { email, role, name: 'E2E Person' },
      headers: await adminCsrf(),
    });
    expect(invited.status(), await invited.text()).toBe(201);
    const { temporaryPassword } = (await invited.json()) as { temporaryPassword: string };

    await page.context().clearCookies();
    await page.request.get('/api/app-info');
    const challenge = await page.request.post('/api/session', {
      data: { email, password: temporaryPassword },
      headers: await csrf(page),
    });
    const { session: challengeSession } = (await challenge.json()) as { session: string };
    const done = await page.request.post('/api/session/new-password', {
      data: { session: challengeSession, newPassword: password },
      headers: await csrf(page),
    });
    expect(done.status(), await done.text()).toBe(200);
  } finally {
    await admin.dispose();
  }
  await page.goto(landing);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  return { email, password };
}

/** axe-core's minified build, read once per worker. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Puts axe into a frame once per document; a frame that runs no script (a sandboxed report preview) is skipped. */
async function injectAxe(frame: Frame): Promise<void> {
  const present = await frame.evaluate(() => 'axe' in window).catch(() => true);
  if (!present) await frame.evaluate(AXE_SOURCE).catch(() => undefined);
}

/**
 * Axe over the page (or the part `include` names, less what `exclude` names) against the WCAG rules, run inside
 * the page itself, answering the violations in full and the other results by rule only. Axe is put into each frame
 * once per document and then run as often as asked: @axe-core/playwright evaluated its 1.4 MB source twice per check
 * (measured: ~0.6 s of a check's ~0.75 s, in a suite bound by Chromium's CPU). Cross-origin frames are not reached;
 * the product has none (its report previews are sandboxed frames, left out where a page shows one).
 */
export async function axe(page: Page, scope: { include?: string; exclude?: string } = {}): Promise<AxeResults> {
  for (const frame of page.frames()) await injectAxe(frame);
  const context = {
    ...(scope.include ? { include: [scope.include] } : {}),
    ...(scope.exclude ? { exclude: [scope.exclude] } : {}),
  };
  const options: RunOptions = { runOnly: { type: 'tag', values: WCAG }, resultTypes: ['violations'] };
  // Sent back as text: Playwright's types for an evaluated value go too deep on axe's results.
  const results = await page.evaluate(
    async ([context, options]) => {
      const { axe } = window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } };
      return JSON.stringify(await axe.run(Object.keys(context).length > 0 ? context : document, options));
    },
    [context, options] as const,
  );
  return JSON.parse(results) as AxeResults;
}

/** Checks the page (or one part of it, e.g. a dialog) with axe against the WCAG A and AA rules; none may fail. */
export async function expectNoAxeViolations(page: Page, include?: string): Promise<void> {
  const { violations, passes } = await axe(page, { include });
  // The page was really checked: rules applied to it and held.
  expect(passes.length).toBeGreaterThan(5);
  expect(
    violations.map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => `${node.target.join(' ')} ${node.html.slice(0, 160)}`).join(' | ')}`,
    ),
  ).toEqual([]);
}

/** In the open report wizard: the token, Next, the organization, then the first `groups` account groups (checked by axe). */
export async function fillReportWizard(
  page: Page,
  admin: { token: string; organizationName: string },
  groups = 1,
): Promise<void> {
  await dialog(page).getByLabel('OAuth token').fill(admin.token);
  await dialog(page).getByRole('button', { name: 'Next' }).click();
  await dialog(page).getByLabel('Organization').selectOption({ label: admin.organizationName });
  const boxes = dialog(page).getByRole('list', { name: 'Account groups' }).getByRole('checkbox');
  for (let index = 0; index < groups; index++) await boxes.nth(index).check();
  await expectNoAxeViolations(page, '[role="dialog"]');
}

/** Opens My Reports and waits until the newest report named `label` is done; returns its row. */
export async function doneReport(page: Page, label: string) {
  await menu(page).getByRole('link', { name: 'My Reports' }).click();
  const row = page.getByTestId('report-row').filter({ hasText: label }).first();
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  return row;
}

/** Chooses the customer in the navbar by pasting its token once. */
export async function chooseCustomer(page: Page, admin: SandboxToken): Promise<void> {
  await page.getByTestId('customer-switcher').click();
  const chooser = page.getByRole('dialog', { name: 'Customer' });
  await chooser.getByLabel('Org Admin token').fill(admin.token);
  await chooser.getByRole('button', { name: 'Use this token' }).click();
  await expect(chooser).toBeHidden();
  await expect(page.getByTestId('customer-switcher')).toContainText(admin.organizationName);
}

import { expect, type Page } from './fixtures.js';
import { sandboxOrgAdmin } from './helpers';

export { setScenario, type SandboxToken } from './helpers';

// The bulk tools against the sandbox platform. Every check that something was created or deleted
// asks the sandbox's own v7 API, as a second client of the platform would see it.

export interface Group {
  aid: string;
  accountGroupName: string;
}
export interface Agent {
  agentId: string;
  agentName: string;
  agentType: string;
  location: string;
  ipAddresses?: string[];
  lastSeen?: string;
}

/** This test's Org Admin token (its own copy of the sandbox organizations). */
export const orgAdminToken = async (page: Page) => (await sandboxOrgAdmin(page)).token;

export async function platformGet<T>(page: Page, token: string, path: string): Promise<T> {
  const response = await page.request.get(`/sandbox/te/v7${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status(), path).toBe(200);
  return (await response.json()) as T;
}

export const groupsOf = async (page: Page, token: string) =>
  (await platformGet<{ accountGroups: Group[] }>(page, token, '/account-groups')).accountGroups;
export const testNamesIn = async (page: Page, token: string, aid: string) =>
  (await platformGet<{ tests: { testName: string }[] }>(page, token, `/tests?aid=${aid}`)).tests.map(
    (item) => item.testName,
  );
export const agentsIn = async (page: Page, token: string, aid: string) =>
  (await platformGet<{ agents: Agent[] }>(page, token, `/agents?aid=${aid}`)).agents;

export const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const toast = (page: Page, text: string | RegExp) =>
  page.locator('[role="status"], [role="alert"]').filter({ hasText: text });
export const card = (page: Page, index: number) => page.getByTestId('template-card').nth(index);

/** Steps 1 and 2: the token, then the named account groups. */
export async function chooseGroups(page: Page, token: string, groups: Group[], next = 'Next') {
  await page.getByLabel('OAuth Token').fill(token);
  await page.getByRole('button', { name: next, exact: true }).click();
  const list = page.getByRole('list', { name: 'Account groups' });
  for (const group of groups)
    await list.getByRole('checkbox', { name: new RegExp(`^${escape(group.accountGroupName)}\\b`) }).check();
  await expect(page.getByTestId('info-groups')).toHaveText(String(groups.length));
  await page.getByRole('button', { name: next, exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Test Configuration' })).toBeVisible();
}

export async function fillTemplate(
  page: Page,
  index: number,
  template: { name: string; type?: string; url?: string; domain?: string; agents: string[] },
) {
  const target = card(page, index);
  await target.getByLabel('Test Name').fill(template.name);
  if (template.type) await target.getByLabel('Test Type').selectOption(template.type);
  if (template.url) await target.getByLabel(/^URL/).fill(template.url);
  if (template.domain) await target.getByLabel(/^Domain/).fill(template.domain);
  for (const agent of template.agents)
    await target
      .getByRole('list', { name: 'Agents' })
      .getByRole('checkbox', { name: new RegExp(`^${escape(agent)}\\b`) })
      .check();
}

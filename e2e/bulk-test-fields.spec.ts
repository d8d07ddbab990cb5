import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.js';
import { orgAdminToken, groupsOf, toast, card, chooseGroups } from './bulk-helpers';
import { sandboxToken, signIn } from './helpers';

test.beforeEach(async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'tam@demo.local');
});

test('each test type asks for its own fields, with the spec messages', async ({ page }) => {
  const token = await orgAdminToken(page);
  const groups = (await groupsOf(page, token)).slice(0, 1);
  // Five remembered tokens: three are offered, newest first, as their last 8 characters.
  await page.goto('/home/tools/bulk-tests');
  // Kept for the signed-in user (see the shell tests for what happens when the session ends).
  const { user } = (await (await page.request.get('/api/session')).json()) as { user: { id: string } };
  await page.evaluate(
    (userId) =>
      localStorage.setItem(
        `ce.user.${userId}.recent-tokens.bulk-tests`,
        JSON.stringify([
          'token-five-aaaa1111',
          'token-four-bbbb2222',
          'token-three-cccc3333',
          'token-two-dddd4444',
          'one',
        ]),
      ),
    user.id,
  );
  await page.reload();
  await expect(page.getByRole('group', { name: 'Recent tokens' }).getByRole('button')).toHaveText([
    '…aaaa1111',
    '…bbbb2222',
    '…cccc3333',
  ]);
  await expect(page.getByLabel('OAuth Token')).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(toast(page, 'Please provide a valid OAuth token')).toBeVisible();
  await page.getByLabel('OAuth Token').fill((await sandboxToken(page, 'revoked')).token);
  await page.getByRole('button', { name: 'Next' }).click();
  const refused = toast(page, 'The provided OAuth token is invalid or has expired. Please check your credentials.');
  await expect(refused).toContainText('Authentication Failed');
  await expect(page.getByRole('heading', { name: 'Authentication' })).toBeVisible();

  await page.getByLabel('OAuth Token').fill(token);
  await page.getByRole('button', { name: 'Next' }).click();
  // Step 2 searches account group and organization names.
  await page.getByLabel('Search account groups').fill('no such group');
  await expect(page.getByRole('list', { name: 'Account groups' }).getByRole('checkbox')).toHaveCount(0);
  await page.getByLabel('Search account groups').fill('ACME CORP');
  await expect(page.getByRole('list', { name: 'Account groups' }).getByRole('checkbox')).toHaveCount(6);
  await page.getByLabel('Search account groups').fill('');
  await page.getByRole('button', { name: 'Back' }).click();
  await chooseGroups(page, token, groups);

  const only = card(page, 0);
  await only.getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page, 'At least one test template is required')).toBeVisible();
  await expect(page.getByTestId('template-card')).toHaveCount(1);
  await page.getByRole('button', { name: 'Add Another Test Template' }).click();
  await card(page, 1).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('template-card')).toHaveCount(1);

  // The defaults and choices of a card.
  await expect(only.getByLabel('Test Type')).toHaveValue('http-server');
  await expect(only.getByLabel('Interval').locator('option')).toHaveText([
    '1 minute',
    '2 minutes',
    '5 minutes',
    '10 minutes',
    '15 minutes',
    '30 minutes',
    '1 hour',
  ]);
  await expect(only.getByLabel('Interval')).toHaveValue('300');
  await expect(only.getByLabel('Enable alerts')).toBeChecked();
  await only.getByRole('button', { name: 'Select All Agents', exact: true }).click();
  const agentCount = await only.getByRole('list', { name: 'Agents' }).getByRole('checkbox').count();
  expect(agentCount).toBeGreaterThan(1);
  await expect(only.getByText(`Agents (${agentCount} selected)`)).toBeVisible();
  await only.getByRole('button', { name: 'Deselect All Agents' }).click();
  await expect(only.getByText('Agents (0 selected)')).toBeVisible();

  await page.getByRole('button', { name: 'Execute Bulk Tests' }).click();
  await expect(toast(page, 'Please complete all test configurations')).toBeVisible();
  await expect(only).toContainText('Test name is required');
  await expect(only).toContainText('URL must start with http:// or https://');
  await expect(only).toContainText('Select at least one agent');
  await only.getByLabel('URL').fill('ftp://files.example.com');
  await expect(only).toContainText('URL must start with http:// or https://');
  await only.getByLabel('URL').fill('https://files.example.com');
  await expect(only).not.toContainText('URL must start with');

  await only.getByLabel('Test Type').selectOption('page-load');
  await expect(only.getByLabel('URL')).toHaveValue('https://files.example.com');
  await only.getByLabel('Test Type').selectOption('dns-trace');
  await expect(only.getByLabel('URL')).toHaveCount(0);
  await expect(only).toContainText('Domain is required');
  await only.getByLabel('Test Type').selectOption('dns-server');
  await expect(only).toContainText('Domain is required');
  await expect(only).toContainText('Enter at least one DNS server');
  await only.getByLabel('Test Type').selectOption('agent-to-server');
  await expect(only.getByLabel('Port')).toHaveValue('80');
  await only.getByLabel('Port').fill('70000');
  await expect(only).toContainText('Port must be between 1 and 65535');
  await only.getByLabel('Port').fill('443');
  await expect(only).not.toContainText('Port must be');
  await only.getByLabel('Domain').fill('shop.example.com');
  await expect(only).not.toContainText('Domain is required');
  await only.getByLabel('Test Type').selectOption('bgp');
  await expect(only).toContainText('Enter a prefix such as 203.0.113.0/24');
  await expect(only).not.toContainText('Select at least one agent');

  // Templates files are judged by their content, whatever their name.
  const importFile = (name: string, content: string) =>
    page
      .getByLabel('Templates file')
      .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(content) });
  await importFile('templates.json', 'testName,testType\nShop,http-server');
  await expect(toast(page, 'This file is not a templates file: it is not JSON')).toBeVisible();
  await expect(page.getByTestId('template-card')).toHaveCount(1);
  const file = {
    format: 'ce-toolkit/bulk-test-templates',
    version: 1,
    templates: [
      { testName: 'Imported web', url: 'https://imported.example.com' },
      { testName: 'Imported port', testType: 'agent-to-server', domain: 'imported.example.com', port: 8443 },
    ],
  };
  await importFile('anything.txt', JSON.stringify(file));
  await expect(toast(page, '2 templates imported')).toBeVisible();
  await expect(page.getByTestId('template-card')).toHaveCount(2);
  await expect(card(page, 1).getByLabel('Port')).toHaveValue('8443');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Templates' }).click();
  const exported = JSON.parse(await readFile((await (await downloading).path()) ?? '', 'utf8'));
  expect(exported.templates.map((template: { testName: string }) => template.testName)).toEqual([
    'Imported web',
    'Imported port',
  ]);
});

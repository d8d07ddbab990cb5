import { expect, test } from './fixtures.js';
import { expectNoAxeViolations, signIn } from './helpers';

test('feedback is written in a dialog from any page and reaches the team by mail', async ({ page }) => {
  await signIn(page, 'adoption@demo.local', undefined, '/home/settings');
  await page.getByRole('button', { name: 'Tell the team' }).click();
  const dialog = page.getByRole('dialog', { name: 'Feedback for the CE Toolkit team' });
  await dialog.getByRole('button', { name: 'Send feedback' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Write your feedback first.');
  await expectNoAxeViolations(page, '[role="dialog"]');

  const words = `Settings reads clearly; a dark theme would be welcome (${Date.now()}).`;
  await dialog.getByLabel('What works, what does not, what you miss').fill(words);
  await dialog.getByLabel('How useful is the toolkit to you?').selectOption('4');
  await dialog.getByRole('button', { name: 'Send feedback' }).click();
  await expect(page.getByText('Thank you: your feedback was sent to the team.')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const mail = (await (await page.request.get('/sandbox/mail/messages?to=ce-toolkit-support@example.com')).json())
    .items as { subject: string; text: string }[];
  const sent = mail.find((message) => message.text.includes(words));
  expect(sent?.subject).toBe('CE Toolkit feedback from adoption@demo.local');
  expect(sent?.text).toContain('Page: /home/settings');
  expect(sent?.text).toContain('Rating: 4 of 5');
});

import { WATCH_CARD, WATCH_EDIT, WATCH_MESSAGES } from '@ce/contract';
import { expect, test } from './fixtures.js';
import { groupsOf } from './bulk-helpers';
import { dialog, expectNoAxeViolations, sandboxOrgAdmin, signInAsNewUser } from './helpers';
import { createWatch, sandboxRoom } from './watch-helpers';

const VIEWPORTS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
];

// The reader is in UTC and the watch is set to Paris time: the card names the zone of the next run it writes.
test.use({ timezoneId: 'UTC' });

/** An instant as the app writes it (apps/web/src/lib/dates.ts), in UTC: "3 Dec 2026, 17:00". */
const written = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  }).format(new Date(iso));

for (const viewport of VIEWPORTS) {
  test(`a watch's schedule, zone and room changed from its card, kept after a reload; refusals beside their fields, focused (${viewport.name})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const { email } = await signInAsNewUser(page, 'TAM');
    const admin = await sandboxOrgAdmin(page);
    const [group] = await groupsOf(page, admin.token);
    if (!group) throw new Error('the organization has account groups');
    const watchId = await createWatch(page, admin, [group]);
    const theirs = await sandboxRoom(page, 'Someone else’s room', 'someone@else.example');
    const ours = await sandboxRoom(page, `${admin.organizationName} watch`, email);

    await page.goto(`/home/customers/${admin.organizationId}`);
    const card = page.getByTestId('watch');
    await expect(card).toContainText('Weekly on Monday at 07:00 (UTC)');

    // Cancel loses nothing: the watch is as it was, and the edit opens with it again.
    await card.getByRole('button', { name: 'Edit' }).click();
    const form = dialog(page);
    await expect(form).toHaveAccessibleName(WATCH_EDIT.title(admin.organizationName));
    await expect(form.getByTestId('watch-fixed')).toContainText(WATCH_EDIT.organizationFixed);
    await expect(form.getByLabel('How often')).toHaveValue('weekly');
    await expect(form.getByLabel('On', { exact: true })).toHaveValue('1');
    await expect(form.getByRole('checkbox', { name: group.accountGroupName })).toBeChecked();
    await expectNoAxeViolations(page);
    await form.getByLabel('How often').selectOption('daily');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toBeHidden();
    await expect(card).toContainText('Weekly on Monday at 07:00 (UTC)');
    await card.getByRole('button', { name: 'Edit' }).click();
    await expect(form.getByLabel('How often')).toHaveValue('weekly');

    // Daily at 18:00 Paris time, into a room its owner is not in: the server's refusal is said beside the room,
    // the room focused with its line in sight (on a phone too), nothing lost.
    await form.getByLabel('How often').selectOption('daily');
    await form.getByLabel('At', { exact: true }).fill('18:00');
    await form.getByLabel('Time zone').fill('Europe/Paris');
    await form.getByLabel('Message to').selectOption('room');
    await form.getByLabel('Webex room id').fill(theirs);
    await form.getByRole('button', { name: 'Save' }).click();
    const room = form.getByLabel('Webex room id');
    await expect(room).toHaveAccessibleDescription(WATCH_MESSAGES.roomNotMember);
    await expect(room).toBeFocused();
    await expect(form.getByText(WATCH_MESSAGES.roomNotMember)).toBeInViewport();
    await expect(room).toHaveValue(theirs);
    await expect(form.getByLabel('At', { exact: true })).toHaveValue('18:00');
    await expectNoAxeViolations(page);
    await expect(card).toContainText('Weekly on Monday at 07:00 (UTC)');

    // A room they are in, saved from the keyboard (Enter in the field): the card says the new schedule, room and
    // next run at once, the run in the reader's time with its zone named; a room's long id stays on the card.
    await room.fill(ours);
    await room.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: WATCH_EDIT.saved(admin.organizationName) })).toBeVisible();
    await expect(form).toBeHidden();
    const saved = (await (await page.request.get(`/api/watches/${watchId}`)).json()) as { nextRunAt: string };
    // 18:00 in Paris is 17:00 UTC in winter, 16:00 in summer.
    expect(saved.nextRunAt.slice(11, 16)).toMatch(/^1[67]:00$/);
    const changed = async () => {
      await expect(card).toContainText('Daily at 18:00 (Europe/Paris)');
      await expect(card).toContainText(`Webex room ${ours}`);
      await expect(card).toContainText(WATCH_CARD.nextRunInReaderZone(written(saved.nextRunAt), 'UTC'));
      const [shown, whole] = await Promise.all([card.getByText(ours).boundingBox(), card.boundingBox()]);
      expect(shown && whole && shown.x + shown.width <= whole.x + whole.width).toBe(true);
    };
    await changed();
    await page.reload();
    await changed();

    // The review pack duty on a watch set to backups alone: refused beside the duty, and nothing sent.
    await card.getByRole('button', { name: 'Edit' }).click();
    await expect(form.getByLabel('How often')).toHaveValue('daily');
    const duty = form.getByRole('checkbox', { name: 'Build last month’s review pack on the first run of each month' });
    await duty.check();
    await form.getByLabel('What runs').selectOption('backup');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(duty).toHaveAccessibleDescription(new RegExp(WATCH_MESSAGES.packNeedsHealth));
    await expect(duty).toBeChecked();
    await form.getByRole('button', { name: 'Cancel' }).click();
    const kept = (await (await page.request.get(`/api/watches/${watchId}`)).json()) as {
      runs: string;
      monthlyReviewPack: boolean;
    };
    expect(kept).toMatchObject({ runs: 'health', monthlyReviewPack: false });
  });
}

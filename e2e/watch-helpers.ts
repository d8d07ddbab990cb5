import { expect, type Page } from './fixtures.js';
import { csrf, type sandboxOrgAdmin } from './helpers';

/** The sandbox customer's Org Admin, as `sandboxOrgAdmin` answers it. */
export type Admin = Awaited<ReturnType<typeof sandboxOrgAdmin>>;
export type Group = { aid: string; accountGroupName: string };

/**
 * A weekly watch over `groups` of the admin's organization, made through the API as its form makes one (consent,
 * the owner's channel, any change said); answers its id.
 */
export async function createWatch(
  page: Page,
  admin: Admin,
  groups: Group[],
  { runs = 'health', drift = false }: { runs?: 'health' | 'backup' | 'both'; drift?: boolean } = {},
): Promise<string> {
  const created = await page.request.post('/api/watches', {
    headers: await csrf(page),
    data: {
      token: admin.token,
      organization: { id: admin.organizationId, name: admin.organizationName },
      consent: { contactName: 'Dana Admin', contactEmail: 'dana@customer.example', days: 30 },
      accountGroups: groups.map(({ aid, accountGroupName }) => ({ aid, accountGroupName })),
      runs,
      schedule: { cadence: 'weekly', weekday: 1, time: '07:00', timeZone: 'UTC' },
      channel: { kind: 'owner' },
      speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift, weeklyQuietLine: false },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** Runs the watch now and waits until its `count`-th run is done. */
export async function runWatchNow(page: Page, watchId: string, count = 1): Promise<void> {
  expect((await page.request.post(`/api/watches/${watchId}/runs`, { headers: await csrf(page) })).status()).toBe(202);
  await expect
    .poll(
      async () => {
        const { runs } = (await (await page.request.get(`/api/watches/${watchId}/runs`)).json()) as {
          runs: { status: string }[];
        };
        return runs.length === count ? runs[0]?.status : 'waiting';
      },
      { timeout: 90_000 },
    )
    .toBe('done');
}

/** The sandbox bot's token, as e2e/start-test-server.mjs sets it (WEBEX_BOT_TOKEN). */
const BOT = { authorization: 'Bearer e2e-sandbox-webex-bot-token' };

/** A Webex room of the sandbox the bot is in, with `member` in it; answers its id. */
export async function sandboxRoom(page: Page, title: string, member: string): Promise<string> {
  const made = await page.request.post('/sandbox/webex/v1/rooms', { headers: BOT, data: { title } });
  expect(made.status(), await made.text()).toBe(200);
  const roomId = ((await made.json()) as { id: string }).id;
  const joined = await page.request.post('/sandbox/webex/v1/memberships', {
    headers: BOT,
    data: { roomId, personEmail: member },
  });
  expect(joined.status(), await joined.text()).toBe(200);
  return roomId;
}

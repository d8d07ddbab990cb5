import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Watch } from '@ce/contract';
import type { SandboxCustomer, TestApp, TestClient } from './build-test-app.js';
import { measuredGroup, measuredWatchSuite, runWatchNow } from './support/measured-watch.js';

/**
 * A watch whose account groups an edit changed (issue 59's walk-through: adding Acme - Staging made the next message
 * list that group's offline agents and 20 findings as changes at the customer): the run after the edit is a new
 * starting point, said as such, and the run after it compares again.
 */
describe('Account Watch: the run after its account groups changed', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;
  let watch: Watch;

  beforeAll(async () => {
    ({ testApp, tam, customer, watch } = await measuredWatchSuite());
  }, 120_000);
  afterAll(() => testApp?.close());

  const messagesToTam = () =>
    (testApp.sandbox?.webex.messages ?? [])
      .filter((message) => message.toPersonEmail === 'tam@demo.local')
      .map((message) => (message.markdown ?? '').replace(/\\(.)/g, '$1'));

  it('says the groups added and starts again from that run, then compares as before', async () => {
    await runWatchNow(tam, watch, 1);
    const added = customer.groups.find((group) => group.aid !== measuredGroup(customer).aid);
    if (!added) throw new Error('the customer has one group');
    const edited = await tam.request({
      method: 'PUT',
      url: `/api/watches/${watch.id}`,
      payload: {
        accountGroups: [...watch.accountGroups, added],
        runs: watch.runs,
        schedule: watch.schedule,
        channel: watch.channel,
        speakWhen: { ...watch.speakWhen, anyChange: true },
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);

    const second = await runWatchNow(tam, watch, 2);
    const said = messagesToTam();
    expect(said).toHaveLength(2);
    const message = said[1] ?? '';
    expect(message).toContain(
      `Account groups changed since the last run (added: ${added.accountGroupName}): this run is the new starting point.`,
    );
    expect(message).toContain(`${second.score}/100`);
    // Nothing of the added group's standing state is said as a change at the customer.
    expect(message).not.toMatch(/New findings|What moved|Resolved/);

    // The next run compares with this one: nothing changed, so (speaking on any change) nothing is sent.
    await runWatchNow(tam, watch, 3);
    expect(messagesToTam()).toHaveLength(2);
  }, 300_000);
});

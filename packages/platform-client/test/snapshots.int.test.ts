import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformClient, PlatformError, type PlatformSession } from '../src/index.js';
import { startSandbox } from './start-sandbox.js';

const HOUR_MS = 3_600_000;

describe('test snapshots through the client', () => {
  let started: Awaited<ReturnType<typeof startSandbox>>;
  let admin: PlatformSession;
  let aid = '';
  let testId = '';
  let firstShare = '';
  const hour = () => {
    const end = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - HOUR_MS;
    return { startDate: new Date(end - HOUR_MS).toISOString(), endDate: new Date(end).toISOString() };
  };

  beforeAll(async () => {
    started = await startSandbox();
    admin = new PlatformClient({ baseUrl: started.baseUrl, timeoutMs: 10_000 }).as({
      token: started.token('org-admin'),
    });
    aid =
      (await admin.accountGroups.list()).find((group) => group.accountGroupName === 'Acme - EMEA Branches')?.aid ?? '';
    testId = (await admin.tests.list(aid)).find((test) => test.testName === 'Warehouse network')?.testId ?? '';
  });
  afterAll(() => started?.close());

  it('tells the 6th snapshot in 5 minutes at once, in words, and leaves the organization its other calls', async () => {
    for (let made = 0; made < 5; made += 1) {
      const snapshot = await admin.snapshots.create(testId, { displayName: `Evidence ${made}`, ...hour() }, aid);
      expect(snapshot._links?.appLink?.href).toMatch(/\/sandbox\/te\/snapshots\/[a-z]+$/);
      firstShare ||= snapshot.id;
    }
    const asked = Date.now();
    const refusal = await admin.snapshots
      .create(testId, { displayName: 'One too many', ...hour() }, aid)
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PlatformError);
    expect((refusal as PlatformError).status).toBe(429);
    expect((refusal as PlatformError).message).toBe(
      'The platform allows 5 test snapshots per organization in 5 minutes: try again in 5 minute(s).',
    );
    // Not waited out: the refusal and the next read come within the time of a few calls, not of 5 minutes.
    expect((await admin.tests.list(aid)).length).toBeGreaterThan(0);
    expect(Date.now() - asked).toBeLessThan(5_000);
  });

  it('opens the share link without a token, and refuses a range the document does not allow before calling', async () => {
    const made = await admin.snapshots
      .create(testId, { displayName: 'Evidence', ...hour() }, aid)
      .catch((error: unknown) => error);
    // Still within the 5 minutes of the first test's five: the link of one made then is opened instead.
    expect(made).toBeInstanceOf(PlatformError);
    const kept = started.sandbox.platform.calls.length;
    const share = await fetch(`${started.origin}/sandbox/te/snapshots/${firstShare}`);
    expect(share.status).toBe(200);
    expect(await share.text()).toContain('Test: Warehouse network');
    expect(started.sandbox.platform.calls.length).toBe(kept);
    const snapshots = started.sandbox.platform.calls.filter((call) => call.path.endsWith('/snapshot')).length;
    await expect(
      admin.snapshots.create(
        testId,
        { displayName: 'Three hours', startDate: '2026-01-01T00:00:00Z', endDate: '2026-01-01T03:00:00Z' },
        aid,
      ),
    ).rejects.toMatchObject({ status: 400 });
    expect(started.sandbox.platform.calls.filter((call) => call.path.endsWith('/snapshot')).length).toBe(snapshots);
  });
});

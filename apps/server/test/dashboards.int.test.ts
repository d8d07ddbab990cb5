import { randomUUID } from 'node:crypto';
import { DashboardsRepository } from '../src/modules/dashboards/dashboards.repository.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommunityDashboard, PushPlan } from '@ce/contract';
import {
  createTestApp,
  ANSWER_SUITE_DATABASES,
  multipartBody,
  sandboxCustomer,
  signedInClient,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

type Upload = { bytes: Uint8Array; name: string; type: string };

const png = (width: number, height: number, background = '#336699') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

describe.each(ANSWER_SUITE_DATABASES)('the dashboard manager (%s)', (kind) => {
  let testApp: TestApp;
  let tam: TestClient;
  let proserv: TestClient;
  let superUser: TestClient;
  let customer: SandboxCustomer;
  let screenshots: Record<string, Upload>;

  const world = () => {
    if (!testApp.sandbox) throw new Error('the sandbox is mounted in tests');
    return testApp.sandbox.platform.world;
  };
  const description = 'A one-page view of web availability and latency for the executive team review.';
  const cloneForm = (dashboardId: string, aid: string, overrides: Record<string, string> = {}) => ({
    token: customer.token,
    organizationId: customer.organization.id,
    aid,
    dashboardId,
    description,
    ...overrides,
  });
  const clone = async (fields: Record<string, string>, files: Record<string, Upload> = screenshots) =>
    tam.request({ method: 'POST', url: '/api/community-dashboards', ...(await multipartBody(fields, files)) });
  const gallery = async (client: TestClient, query = '') =>
    (await client.request({ method: 'GET', url: `/api/community-dashboards${query}` })).json<{
      dashboards: CommunityDashboard[];
    }>().dashboards;

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    [tam, proserv, superUser] = await Promise.all([
      signedInClient(testApp.app, 'tam@demo.local'),
      signedInClient(testApp.app, 'proserv@demo.local'),
      signedInClient(testApp.app, 'superuser@demo.local'),
    ]);
    customer = await sandboxCustomer(testApp, tam);
    const image = await png(320, 200);
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#aa3300' } })
      .jpeg()
      .toBuffer();
    screenshots = {
      screenshot1: { bytes: image, name: 'overview.png', type: 'image/png' },
      screenshot2: { bytes: jpeg, name: 'detail.jpg', type: 'image/jpeg' },
      screenshot3: { bytes: image, name: 'widgets.png', type: 'image/png' },
    };
  });
  afterAll(async () => {
    await testApp.close();
  });

  it("lists a group's dashboards through the platform", async () => {
    const aid = customer.groups[0]?.aid ?? '';
    const response = await tam.request({
      method: 'POST',
      url: '/api/dashboards/group',
      payload: { token: customer.token, aid },
    });
    expect(response.statusCode, response.body).toBe(200);
    const titles = response.json<{ dashboards: { title: string }[] }>().dashboards.map((item) => item.title);
    expect(titles.sort()).toEqual(
      world()
        .dashboards.filter((dashboard) => dashboard.aid === aid)
        .map((dashboard) => dashboard.title)
        .sort(),
    );
    const short = await tam.request({
      method: 'POST',
      url: '/api/dashboards/group',
      payload: { token: 'x'.repeat(33), aid },
    });
    expect(short.json().error.message).toBe('OAuth token is required (min 34 characters)');
  });

  it('checks screenshots by their content, their size and their number', async () => {
    const source = world().dashboards.find((dashboard) => dashboard.aid === customer.groups[0]?.aid);
    const fields = cloneForm(source?.dashboardId ?? '', source?.aid ?? '');
    const refused = async (files: Record<string, Upload>) => {
      const response = await clone(fields, files);
      expect(response.statusCode, response.body).toBe(400);
      return response.json<{ error: { message: string } }>().error.message;
    };
    const text = { bytes: new TextEncoder().encode('not a picture at all\n'), name: 'fake.png', type: 'image/png' };
    expect(await refused({ ...screenshots, screenshot2: text })).toBe('Please upload only image files');
    const image = screenshots.screenshot1 as Upload;
    const truncated = { ...image, bytes: image.bytes.slice(0, 60) };
    expect(await refused({ ...screenshots, screenshot3: truncated })).toBe('Please upload only image files');
    const html = {
      bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      name: 'a.png',
      type: 'image/png',
    };
    expect(await refused({ ...screenshots, screenshot1: html })).toBe('Please upload only image files');
    const huge = new Uint8Array(5 * 1024 * 1024 + 1);
    huge.set(image.bytes);
    expect(await refused({ ...screenshots, screenshot1: { ...image, bytes: huge } })).toBe(
      'File size should not exceed 5MB',
    );
    const { screenshot3: _third, ...two } = screenshots;
    expect(await refused(two)).toBe('Screenshot 3 is required');
    expect(await refused({ ...screenshots, screenshot2: { ...image, bytes: new Uint8Array(0) } })).toBe(
      'Screenshot 2 is required',
    );
    const shortDescription = await clone({ ...fields, description: 'Too short' });
    expect(shortDescription.json().error.message).toBe('The description needs at least 50 characters');
    const shortToken = await clone({ ...fields, token: 'sbx-short' });
    expect(shortToken.json().error.message).toBe('OAuth token is required (min 34 characters)');
    expect(await gallery(tam)).toEqual([]);
  });

  it('stores the full definition, the screenshots re-encoded as PNG, and counts the clone on the dashboard', async () => {
    const before = (await tam.request({ method: 'GET', url: '/api/dashboard/metrics' })).json().provisionedDashboards;
    const source = world().dashboards.find(
      (dashboard) => dashboard.aid === customer.groups[1]?.aid && dashboard.widgets.length >= 2,
    );
    if (!source) throw new Error('the demo world has a dashboard with widgets in its second group');
    const response = await clone(cloneForm(source.dashboardId, source.aid));
    expect(response.statusCode, response.body).toBe(201);
    const entry = response.json<CommunityDashboard>();
    expect(entry).toMatchObject({
      title: source.title,
      description,
      creator: 'tam@demo.local',
      status: 'pending',
      votes: 0,
      userVoted: false,
      pushCount: 0,
      imageCount: 3,
      widgetCount: source.widgets.length,
    });

    const template = await tam.request({ method: 'GET', url: `/api/community-dashboards/${entry.id}/template` });
    const [definition] = template.json<{ dashboardTemplate: Record<string, unknown>[] }>().dashboardTemplate;
    expect(definition?.title).toBe(source.title);
    expect(definition).not.toHaveProperty('dashboardId');
    expect(definition).not.toHaveProperty('_links');
    expect(definition).not.toHaveProperty('aid');
    expect((definition?.widgets as unknown[]).length).toBe(source.widgets.length);
    expect(definition?.layout).toEqual(source.layout);

    const served = await tam.request({ method: 'GET', url: `/api/community-dashboards/${entry.id}/images/2` });
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata).toMatchObject({ format: 'png', width: 64, height: 48 });

    const after = (await tam.request({ method: 'GET', url: '/api/dashboard/metrics' })).json().provisionedDashboards;
    expect(after).toBe(before + 1);
  });

  it('toggles votes per user and lets a Super User approve with a comment', async () => {
    const [entry] = await gallery(tam);
    if (!entry) throw new Error('the previous test stored one dashboard');
    const vote = (client: TestClient, action: string) =>
      client.request({ method: 'POST', url: `/api/community-dashboards/${entry.id}/vote`, payload: { action } });
    expect((await vote(tam, 'Vote')).json()).toEqual({ votes: 1, userVoted: true, message: 'Vote added' });
    expect((await vote(proserv, 'Vote')).json()).toMatchObject({ votes: 2 });
    expect((await gallery(proserv))[0]).toMatchObject({ votes: 2, userVoted: true });
    expect((await vote(tam, 'Voted')).json()).toEqual({ votes: 1, userVoted: false, message: 'Vote removed' });
    expect((await gallery(tam))[0]).toMatchObject({ votes: 1, userVoted: false });

    const review = await proserv.request({
      method: 'POST',
      url: `/api/community-dashboards/${entry.id}/reviews`,
      payload: { text: 'Used it for two customers, clear layout.' },
    });
    expect(review.statusCode).toBe(204);

    const status = (client: TestClient) =>
      client.request({
        method: 'POST',
        url: `/api/community-dashboards/${entry.id}/status`,
        payload: { status: 'approved', comment: 'Good starting point' },
      });
    expect((await status(tam)).statusCode).toBe(403);
    expect((await status(superUser)).statusCode).toBe(204);
    const [approved] = await gallery(tam);
    expect(approved?.status).toBe('approved');
    expect(approved?.review).toMatchObject({ comment: 'Good starting point', reviewer: 'superuser@demo.local' });
    expect(approved?.reviews.map((item) => [item.author, item.text])).toEqual([
      ['proserv@demo.local', 'Used it for two customers, clear layout.'],
    ]);
    expect(await gallery(tam, '?search=no-such-words')).toEqual([]);
    expect((await gallery(tam, `?search=${encodeURIComponent(description.slice(2, 20))}`)).length).toBe(1);
  });

  it('pushes into another group: tests mapped by name, absent ones dropped and reported, layout rewritten', async () => {
    const tests = world().tests;
    const nameOf = new Map(tests.map((test) => [test.testId, test.testName]));
    const groupAids = customer.groups.map((group) => group.aid);
    // A dashboard and a target group where one of its tests exists once by name, and another does not.
    let pair: { source: ReturnType<typeof world>['dashboards'][number]; target: string } | undefined;
    for (const source of world().dashboards.filter((dashboard) => groupAids.includes(dashboard.aid)))
      for (const target of groupAids.filter((aid) => aid !== source.aid)) {
        const targetNames = tests.filter((test) => test.aid === target).map((test) => test.testName);
        const counts = source.widgets
          .flatMap((widget) => widget.filters?.TEST ?? [])
          .map((id) => targetNames.filter((name) => name === nameOf.get(id)).length);
        if (!pair && counts.includes(1) && counts.includes(0)) pair = { source, target };
      }
    if (!pair) throw new Error('the demo world has a dashboard whose tests partly exist in another group');
    const { source, target } = pair;

    const cloned = (await clone(cloneForm(source.dashboardId, source.aid))).json<CommunityDashboard>();
    const request = { token: customer.token, organizationId: customer.organization.id, aid: target };
    const planned = await tam.request({
      method: 'POST',
      url: `/api/community-dashboards/${cloned.id}/push-plan`,
      payload: request,
    });
    expect(planned.statusCode, planned.body).toBe(200);
    const plan = planned.json<PushPlan>();
    const targetTests = tests.filter((test) => test.aid === target);
    const expectedTests = source.widgets.map((widget) =>
      (widget.filters?.TEST ?? []).flatMap((id) => {
        const matches = targetTests.filter((test) => test.testName === nameOf.get(id));
        return matches.length === 1 ? [matches[0]?.testId] : [];
      }),
    );
    const droppedTests = plan.dropped.filter((item) => item.kind === 'TEST');
    expect(droppedTests.length).toBeGreaterThan(0);
    expect(droppedTests.every((item) => item.reason.endsWith('in the target account group'))).toBe(true);
    expect(plan.mapped.filter((item) => item.kind === 'TEST').length).toBe(expectedTests.flat().length);

    const pushed = await tam.request({
      method: 'POST',
      url: `/api/community-dashboards/${cloned.id}/push`,
      payload: request,
    });
    expect(pushed.statusCode, pushed.body).toBe(201);
    const answer = pushed.json<{ message: string; dashboardId: string }>();
    expect(answer.message).toBe('Dashboard deployed successfully');

    const created = world().dashboards.find((dashboard) => dashboard.dashboardId === answer.dashboardId);
    expect(created?.aid).toBe(target);
    expect(created?.title).toBe(source.title);
    expect(created?.widgets.length).toBe(source.widgets.length);
    expect(created?.widgets.map((widget) => widget.filters?.TEST ?? [])).toEqual(expectedTests);
    expect(created?.layout?.details.widgetPositioning.map((position) => position.id)).toEqual(
      created?.widgets.map((widget) => widget.id),
    );

    expect((await gallery(tam)).find((item) => item.id === cloned.id)?.pushCount).toBe(1);
    const audit = await superUser.request({ method: 'GET', url: '/api/audit-log' });
    expect(audit.json().entries[0]).toMatchObject({
      actorEmail: 'tam@demo.local',
      action: 'dashboard.pushed',
      detail: expect.objectContaining({ createdDashboardId: answer.dashboardId, aid: target }),
    });
  });

  it('pushes once per push key: a repeated request answers the same dashboard, one cut short finds what it made', async () => {
    const [entry] = await gallery(tam);
    if (!entry) throw new Error('the gallery has an entry');
    const aid = customer.groups[1]?.aid ?? '';
    const pushId = randomUUID();
    const request = { token: customer.token, organizationId: customer.organization.id, aid, pushId };
    const push = (payload: Record<string, string>) =>
      tam.request({ method: 'POST', url: `/api/community-dashboards/${entry.id}/push`, payload });
    const titled = () =>
      world().dashboards.filter((dashboard) => dashboard.aid === aid && dashboard.title === entry.title);
    const before = titled().length;
    const pushCount = async () => (await gallery(tam)).find((item) => item.id === entry.id)?.pushCount ?? 0;
    const countBefore = await pushCount();

    const first = await push(request);
    expect(first.statusCode, first.body).toBe(201);
    const again = await push(request);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().dashboardId).toBe(first.json().dashboardId);
    expect(titled()).toHaveLength(before + 1);
    expect(await pushCount()).toBe(countBefore + 1);

    // A push cut short after the platform made the dashboard (the server died before recording it).
    const cut = randomUUID();
    const made = await push({ ...request, pushId: cut });
    const madeId = made.json<{ dashboardId: string }>().dashboardId;
    await testApp.database.sql.executeSql(
      `update community_dashboard_pushes set status = 'sending', created_dashboard_id = null,
         attempt_at = now() - interval '5 minutes' where push_key = $1`,
      [cut],
    );
    const retried = await push({ ...request, pushId: cut });
    expect(retried.statusCode, retried.body).toBe(201);
    expect(retried.json().dashboardId).toBe(madeId);
    expect(titled()).toHaveLength(before + 2);

    // While a push is under way, the same key is refused rather than pushed twice.
    const busy = randomUUID();
    await push({ ...request, pushId: busy });
    await testApp.database.sql.executeSql(
      `update community_dashboard_pushes set status = 'sending', created_dashboard_id = null where push_key = $1`,
      [busy],
    );
    const refused = await push({ ...request, pushId: busy });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('This push is already under way: its result shows once it ends.');
    expect(titled()).toHaveLength(before + 3);
  });

  it('takes over a push still waiting after two minutes, once; the earlier request then writes nothing', async () => {
    const [entry] = await gallery(tam);
    const [aid, pushId] = [customer.groups[1]?.aid ?? '', randomUUID()];
    const titled = () => world().dashboards.filter((each) => each.aid === aid && each.title === entry?.title);
    const before = titled().map((dashboard) => dashboard.dashboardId);
    // The earlier request recorded its push five minutes ago, and waits still for the customer's budget.
    const rows = await testApp.database.sql.executeSql(
      `insert into community_dashboard_pushes (dashboard_id, user_email, organization_name, aid, account_group_name,
         mapped, dropped, push_key, status, known_ids, attempt_at) values ($1, 'tam@demo.local', 'Acme', $2, 'Acme',
         0, 0, $3, 'sending', $4, now() - interval '5 minutes') returning id`,
      [entry?.id, aid, pushId, JSON.stringify(before)],
    );
    const earlier = { id: (rows.rows[0] as { id: string }).id, attempt: 1 };
    const payload = { token: customer.token, organizationId: customer.organization.id, aid, pushId };
    const push = () => tam.request({ method: 'POST', url: `/api/community-dashboards/${entry?.id}/push`, payload });
    const taking = await push();
    expect([taking.statusCode, titled().length]).toEqual([201, before.length + 1]);
    // The earlier one resumed: right before its write the push is no longer its own; its refusal frees nothing.
    const repository = new DashboardsRepository(testApp.database.db);
    expect(await repository.pushStillMine(earlier)).toBe(false);
    await repository.forgetPush(earlier);
    const again = await push();
    expect(again.json().dashboardId).toBe(taking.json().dashboardId);
    expect(titled()).toHaveLength(before.length + 1);
  });

  it('refuses a push with an invalid token or without a group, with the spec messages', async () => {
    const [entry] = await gallery(tam);
    const push = (payload: Record<string, string>) =>
      tam.request({ method: 'POST', url: `/api/community-dashboards/${entry?.id}/push`, payload });
    const base = {
      token: customer.token,
      organizationId: customer.organization.id,
      aid: customer.groups[0]?.aid ?? '',
    };
    expect((await push({ ...base, token: '' })).json().error.message).toBe('OAuth token is required to push dashboard');
    expect((await push({ ...base, aid: '' })).json().error.message).toBe(
      'Please select an account group to push the dashboard',
    );
    const revoked = world().tokens.find((token) => token.kind === 'revoked')?.token ?? '';
    expect((await push({ ...base, token: revoked })).statusCode).toBe(401);
  });

  it('refuses to plan or push an entry a reviewer rejected; pending and approved ones can be', async () => {
    const source = world().dashboards.find((dashboard) => dashboard.aid === customer.groups[0]?.aid);
    if (!source) throw new Error('the demo world has a dashboard in the first group');
    const entry = (await clone(cloneForm(source.dashboardId, source.aid))).json<CommunityDashboard>();
    expect(entry.status).toBe('pending');
    const request = { token: customer.token, organizationId: customer.organization.id, aid: source.aid };
    const plan = () =>
      proserv.request({ method: 'POST', url: `/api/community-dashboards/${entry.id}/push-plan`, payload: request });
    const push = () =>
      proserv.request({ method: 'POST', url: `/api/community-dashboards/${entry.id}/push`, payload: request });
    expect((await plan()).statusCode).toBe(200);

    const decided = await superUser.request({
      method: 'POST',
      url: `/api/community-dashboards/${entry.id}/status`,
      payload: { status: 'rejected', comment: 'Widgets point at a retired test' },
    });
    expect(decided.statusCode).toBe(204);
    const created = world().dashboards.length;
    for (const refused of [await plan(), await push()]) {
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error.message).toBe(
        'A reviewer rejected this dashboard: it cannot be pushed. Clone it again once it is fixed.',
      );
    }
    expect(world().dashboards.length).toBe(created);

    await superUser.request({
      method: 'POST',
      url: `/api/community-dashboards/${entry.id}/status`,
      payload: { status: 'approved', comment: 'Fixed upstream' },
    });
    expect((await push()).statusCode).toBe(201);
  });
});

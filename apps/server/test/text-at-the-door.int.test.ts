import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSTORABLE_TEXT_MESSAGES, type ApiError, type ParseResponse } from '@ce/contract';
import { WEEK, day, xlsOf } from './support/hours-files.js';
import { knownFrames, pcapFile } from './support/capture-builder.js';
import {
  createTestApp,
  DATABASES,
  multipartBody,
  sandboxCustomer,
  signedInClient,
  TestClient,
  type SandboxCustomer,
  type TestApp,
} from './build-test-app.js';

/** What marks this file's odd texts: no log line may carry it. */
const MARKER = 'door-marker';
/** Raw JSON text: the escapes a caller's request carries, not characters this file's strings would hold. */
const NUL = String.raw`\u0000`;
const LONE = String.raw`\ud800`;

/**
 * Text the database cannot store (U+0000, a lone surrogate), from every source but the platform: a JSON body, a
 * query string, a path parameter, a form field. Each is refused with 400 naming the field before any handler runs;
 * nothing is stored, nothing of it is logged, and the app answers the next request.
 */
describe.each(DATABASES)('text the database cannot store, refused at the door (%s)', (kind) => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;

  const refusal = (response: { statusCode: number; json: () => unknown }) => {
    const { error } = response.json() as ApiError;
    return { status: response.statusCode, message: error.message, fields: error.fields };
  };
  const refused = (message: string, path: string) => ({ status: 400, message, fields: [{ path, message }] });
  const tokenNames = async () => {
    const list = await tam.request({ method: 'GET', url: '/api/account/api-tokens' });
    expect(list.statusCode, list.body).toBe(200);
    return list.json<{ tokens: { name: string }[] }>().tokens.map((token) => token.name);
  };
  const createToken = (json: string) =>
    tam.request({
      method: 'POST',
      url: '/api/account/api-tokens',
      headers: { 'content-type': 'application/json' },
      payload: json,
    });

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
  }, 120_000);
  afterAll(async () => {
    await testApp.close();
  });

  it('refuses a NUL or a lone surrogate in a JSON field, naming it, and stores nothing', async () => {
    const before = await tokenNames();
    const cases: [string, string][] = [
      [`{"name":"${MARKER}${NUL}","expiresInDays":1,"capabilities":["tools"]}`, UNSTORABLE_TEXT_MESSAGES.nul('name')],
      [
        `{"name":"${MARKER}${LONE}","expiresInDays":1,"capabilities":["tools"]}`,
        UNSTORABLE_TEXT_MESSAGES.loneSurrogate('name'),
      ],
      [
        `{"name":"${MARKER}","expiresInDays":1,"capabilities":["tools","${NUL}"]}`,
        UNSTORABLE_TEXT_MESSAGES.nul('capabilities.1'),
      ],
      [
        `{"name":"${MARKER}","expiresInDays":1,"capabilities":["tools"],"${MARKER}${NUL}":1}`,
        UNSTORABLE_TEXT_MESSAGES.nul(`${MARKER}\uFFFD`),
      ],
    ];
    for (const [json, message] of cases) {
      const response = await createToken(json);
      const path = message.slice(message.indexOf('(field ') + 7, -2);
      expect(refusal(response), json).toEqual(refused(message, path));
    }
    expect(await tokenNames()).toEqual(before);
    // The same request without the odd character is taken: the door refused the character, not the request.
    const taken = await createToken(`{"name":"${MARKER}","expiresInDays":1,"capabilities":["tools"]}`);
    expect(taken.statusCode, taken.body).toBe(201);
    const after = await tokenNames();
    expect(after).toHaveLength(before.length + 1);
    expect(after).toContain(MARKER);
  });

  it('refuses a NUL in a sign-in email before the sign-in is tried, and the next sign-in works', async () => {
    const events = async () =>
      Number(
        (
          (await testApp.database.sql.executeSql('select count(*)::int as n from security_events')).rows[0] as {
            n: number;
          }
        ).n,
      );
    const before = await events();
    const response = await new TestClient(testApp.app).request({
      method: 'POST',
      url: '/api/session',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":"tam@demo.local${NUL}","password":"demo-password"}`,
    });
    expect(refusal(response)).toEqual(refused(UNSTORABLE_TEXT_MESSAGES.nul('email'), 'email'));
    expect(await events()).toBe(before);
    expect((await signedInClient(testApp.app, 'tam@demo.local')).sessionId).toBeTruthy();
  });

  it('refuses a NUL in a query string or a path parameter, and answers the next request', async () => {
    const search = await tam.request({ method: 'GET', url: `/api/community-dashboards?search=${MARKER}%00` });
    expect(refusal(search)).toEqual(refused(UNSTORABLE_TEXT_MESSAGES.nul('search'), 'search'));
    const report = await tam.request({ method: 'GET', url: '/api/reports/%00' });
    expect(refusal(report)).toEqual(refused(UNSTORABLE_TEXT_MESSAGES.nul('reportId'), 'reportId'));
    const next = await tam.request({ method: 'GET', url: `/api/community-dashboards?search=${MARKER}` });
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json<{ dashboards: unknown[] }>().dashboards).toEqual([]);
  });

  it('refuses a NUL in an upload form field, naming it, and keeps nothing of the upload', async () => {
    const aid = customer.groups[0]?.aid ?? '';
    const dashboard = testApp.sandbox?.platform.world.dashboards.find((candidate) => candidate.aid === aid);
    expect(dashboard).toBeDefined();
    const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const shot = (name: string) => ({ bytes: image, name, type: 'image/png' });
    const form = await multipartBody(
      {
        token: customer.token,
        organizationId: customer.organization.id,
        aid,
        dashboardId: dashboard?.dashboardId ?? '',
        description: `A one-page view of web availability for the review ${MARKER}\u0000 of the quarter.`,
      },
      { screenshot1: shot('a.png'), screenshot2: shot('b.png'), screenshot3: shot('c.png') },
    );
    const response = await tam.request({ method: 'POST', url: '/api/community-dashboards', ...form });
    expect(refusal(response)).toEqual(refused(UNSTORABLE_TEXT_MESSAGES.nul('description'), 'description'));
    const gallery = await tam.request({ method: 'GET', url: '/api/community-dashboards' });
    expect(gallery.statusCode, gallery.body).toBe(200);
    expect(gallery.json<{ dashboards: unknown[] }>().dashboards).toEqual([]);
  });

  it('reads an hours file whose cells hold a NUL without one, and its tasks are created, never a 500', async () => {
    const crmTasks = () => testApp.sandbox?.salesforce.tasks.length ?? 0;
    const before = crmTasks();
    const parsed = await tam.request({
      method: 'POST',
      url: '/api/tracker/parse',
      ...(await multipartBody(
        { selectedDate: WEEK },
        {
          file: {
            bytes: xlsOf([['ENG-1001\u0000', 'Call', day(0), 'ref\u0000', `${MARKER}\u0000 call`, 1]]),
            name: 'h.xls',
          },
        },
      )),
    });
    expect(parsed.statusCode, parsed.body).toBe(200);
    const rows = parsed.json<ParseResponse>().data;
    expect(rows.map((row) => [row.Engagement_ID, row.external_reference, row.work_performed])).toEqual([
      ['ENG-1001', 'ref', `${MARKER} call`],
    ]);
    // The browser sends the rows back as it read them: taken. With a NUL put back, refused at the door, naming it.
    const sent = (engagement: string) =>
      tam.request({
        method: 'POST',
        url: '/api/tracker/tasks',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          weekStart: WEEK,
          fileName: 'h.xls',
          tasks: [{ ...rows[0], Engagement_ID: engagement }],
        }),
      });
    const refusedTasks = await sent('ENG-1001\u0000');
    expect(refusal(refusedTasks)).toEqual(
      refused(UNSTORABLE_TEXT_MESSAGES.nul('tasks.0.Engagement_ID'), 'tasks.0.Engagement_ID'),
    );
    expect(crmTasks()).toBe(before);
    const created = await sent('ENG-1001');
    expect(created.statusCode, created.body).toBe(200);
    expect(crmTasks()).toBe(before + 1);
  });

  it('refuses a capture whose file name holds a NUL, and keeps no capture', async () => {
    const support = await signedInClient(testApp.app, 'support@demo.local');
    const captures = async () =>
      (await support.request({ method: 'GET', url: '/api/pcap' })).json<{ captures: unknown[] }>().captures;
    const before = (await captures()).length;
    const bytes = pcapFile(knownFrames());
    const response = await support.request({
      method: 'POST',
      url: '/api/pcap',
      ...(await multipartBody({}, { file: { bytes, name: `${MARKER}\u0000.pcap` } })),
    });
    expect(refusal(response)).toEqual(refused(UNSTORABLE_TEXT_MESSAGES.nul('file name'), 'file name'));
    expect(await captures()).toHaveLength(before);
    const taken = await support.request({
      method: 'POST',
      url: '/api/pcap',
      ...(await multipartBody({}, { file: { bytes, name: 'case.pcap' } })),
    });
    expect(taken.statusCode, taken.body).toBe(201);
  });

  it('refuses a body nested far deeper than any form, without overflowing, and names a short path', async () => {
    const depth = 50_000;
    const response = await createToken(`{"name":${'['.repeat(depth)}"${NUL}"${']'.repeat(depth)}}`);
    const { status, message } = refusal(response);
    expect(status).toBe(400);
    expect(message.startsWith(UNSTORABLE_TEXT_MESSAGES.nul('name.0.0').slice(0, -2))).toBe(true);
    expect(message.length).toBeLessThan(200);
    expect((await tam.request({ method: 'GET', url: '/api/account/api-tokens' })).statusCode).toBe(200);
  });

  it('leaves the sandbox, the platform stand-in, taking what a customer types', async () => {
    const test = testApp.sandbox?.platform.world.tests.find((candidate) => candidate.type === 'http-server');
    const owner = testApp.sandbox?.platform.world.accountGroups.find((group) => group.aid === test?.aid);
    const token = testApp.sandbox?.platform.world.tokens.find(
      (candidate) => candidate.kind === 'org-admin' && candidate.orgId === owner?.orgId,
    );
    const put = await testApp.app.inject({
      method: 'PUT',
      url: `/sandbox/te/v7/tests/http-server/${test?.testId}?aid=${test?.aid}`,
      headers: { authorization: `Bearer ${token?.token}`, 'content-type': 'application/json' },
      payload: `{"testName":"${MARKER}${NUL}"}`,
    });
    expect(put.statusCode, put.body).toBe(200);
  });

  it('logged nothing of the odd texts, and no request failed on the server', () => {
    expect(testApp.logs.filter((line) => line.includes(MARKER))).toEqual([]);
    expect(testApp.logs.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });
});

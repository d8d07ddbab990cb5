import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { CommunityDashboard, CreatedApiToken, ParseResponse } from '@ce/contract';
import { multipartBody } from './build-test-app.js';
import { CALLERS, compatSuite } from './support/compat.js';
import { WEEK, day, xlsxOf } from './support/hours-files.js';

const D = '/compat/dashboards/';
const T = '/compat/tracker/';
const R = '/compat/reports/';
/** Keys every plain object has (its prototype's): a table indexed by untrusted text must not find them. */
const OBJECT_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
/** One tracker row as the original's create-tasks call sends it. */
const ROW = {
  row: 2,
  Engagement_ID: 'ENG-1',
  task_type: 'Call',
  due_date: day(0),
  external_reference: '',
  work_performed: 'Cadence call',
  hours_spent: 1,
  selected: true,
};

describe('the original dashboards and tracker services, translated', () => {
  const suite = compatSuite();
  const cec = 'tam@demo.local';
  const gallery = async () =>
    (await suite.tam().request({ method: 'GET', url: '/api/community-dashboards' })).json<{
      dashboards: CommunityDashboard[];
    }>().dashboards;
  /** A dashboard of the customer's with widgets, and another of its groups to push it into. */
  const source = () => {
    const aids = suite.customer().groups.map((group) => group.aid);
    const dashboard = suite
      .world()
      .dashboards.find((candidate) => aids.includes(candidate.aid) && candidate.widgets.length >= 2);
    const target = suite.customer().groups.find((group) => group.aid !== dashboard?.aid);
    if (!dashboard || !target) throw new Error('the demo world has a dashboard with widgets and a second group');
    return { dashboard, target };
  };

  it.each(CALLERS)(
    "lists a group's dashboards, clones one into the gallery, votes, and pushes it, as the original did (%s)",
    async (caller) => {
      const { token } = suite.customer();
      const { dashboard, target } = source();
      const listed = await suite.call(caller, 'POST', `${D}get-dashboard/`, {
        OAuth: token,
        aid: dashboard.aid,
        accountGroupId: dashboard.aid,
        accountGroupName: 'whatever the picker showed',
        Mission: 'Get Dashboard',
        cec,
      });
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json()).toMatchObject({
        status: 'success',
        data: { dashboards: expect.arrayContaining([{ dashboardId: dashboard.dashboardId, title: dashboard.title }]) },
      });

      const image = await sharp({ create: { width: 200, height: 120, channels: 3, background: '#225588' } })
        .png()
        .toBuffer();
      const description = `Cloned through the original call by a ${caller} caller: availability and latency at a glance.`;
      const withAid = await multipartBody(
        {
          OAuth: token,
          Mission: 'Clone Dashboard',
          cec,
          description,
          dashboardId: dashboard.dashboardId,
          aid: dashboard.aid,
        },
        Object.fromEntries(
          [1, 2, 3].map((n) => [`screenshot${n}`, { bytes: image, name: `shot${n}.png`, type: 'image/png' }]),
        ),
      );
      const saved = await suite.call(caller, 'POST', `${D}save-dashboard/`, withAid.payload, withAid.headers);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toMatchObject({ status: 'success', message: 'Dashboard stored successfully' });
      const entry = (await gallery()).find((each) => each.description === description);
      expect(entry).toMatchObject({ dashboardId: dashboard.dashboardId, title: dashboard.title, imageCount: 3 });
      if (!entry) throw new Error('the clone is in the gallery');

      const all = await suite.call(caller, 'POST', `${D}get-dashboard/all`, { cec, Mission: 'Show All Dashboards' });
      expect(all.json().status).toBe('success');
      expect(all.json().data).toContainEqual(
        expect.objectContaining({ id: entry.id, description, votes: 0, user_voted: false, status: 'pending' }),
      );

      const vote = (action: string) =>
        suite.call(caller, 'POST', `${D}vote/`, {
          id: entry.id,
          dashboardId: entry.dashboardId,
          Mission: 'Dash Vote',
          action,
          cec,
        });
      expect((await vote('Vote')).json()).toEqual({
        status: 'success',
        data: { votes: 1, user_voted: true },
        message: 'Vote added',
      });
      expect((await gallery()).find((each) => each.id === entry.id)).toMatchObject({ votes: 1, userVoted: true });
      expect((await vote('Voted')).json()).toMatchObject({ data: { votes: 0, user_voted: false } });
      await vote('Vote');

      const before = suite.world().dashboards.filter((each) => each.aid === target.aid).length;
      const push = await suite.call(caller, 'POST', `${D}create/`, {
        OAuth: token,
        dashboard: [{ title: dashboard.title }],
        dashboardId: dashboard.dashboardId,
        Mission: 'Push Dashboard',
        cec,
        aid: target.aid,
        organizationName: suite.customer().organization.name,
        accountGroupId: target.aid,
        accountGroupName: target.accountGroupName,
      });
      expect(push.statusCode, push.body).toBe(201);
      expect(push.json()).toMatchObject({ status: 'success', message: 'Dashboard deployed successfully' });
      const made = suite.world().dashboards.filter((each) => each.aid === target.aid);
      expect(made).toHaveLength(before + 1);
      expect(made.at(-1)?.title).toBe(dashboard.title);
      expect((await gallery()).find((each) => each.id === entry.id)).toMatchObject({ votes: 1, pushCount: 1 });
    },
  );

  it('pushes once for a repeated call that carries a push key', async () => {
    const { token } = suite.customer();
    const { dashboard, target } = source();
    const body = {
      OAuth: token,
      dashboardId: dashboard.dashboardId,
      Mission: 'Push Dashboard',
      cec,
      aid: target.aid,
      accountGroupId: target.aid,
    };
    const key = { 'idempotency-key': '6f1c1d2e-6a43-4d0a-9a53-0f0c5f3b7e11' };
    const first = await suite.call('token', 'POST', `${D}create/`, body, key);
    const before = suite.world().dashboards.length;
    const again = await suite.call('token', 'POST', `${D}create/`, body, key);
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.json().data.dashboardId).toBe(first.json().data.dashboardId);
    expect(suite.world().dashboards.length).toBe(before);
  });

  it.each(CALLERS)('reads an hours file and creates its rows as CRM tasks (%s)', async (caller) => {
    const file = await xlsxOf([
      ['ENG-1001', 'Meeting', day(0), '', `Cadence call via the original tracker (${caller})`, 1.5],
      ['ENG-1001', 'Configuration', day(1), 'CASE-3', `Alert tuning via the original tracker (${caller})`, 'two'],
    ]);
    const form = await multipartBody({ selectedDate: WEEK }, { file: { bytes: file, name: 'hours.bin' } });
    const parsed = await suite.call(caller, 'POST', `${T}parse-logs-tam/`, form.payload, form.headers);
    expect(parsed.statusCode, parsed.body).toBe(200);
    const { data, warnings } = parsed.json<ParseResponse>();
    expect(data.map((row) => [row.Engagement_ID, row.hours_spent])).toEqual([
      ['ENG-1001', 1.5],
      ['ENG-1001', 0],
    ]);
    expect(warnings).toEqual(['Row 3: hours_spent "two" is not a number; counted as 0.']);

    const tasks = () => suite.app().sandbox?.salesforce.tasks ?? [];
    const before = tasks().length;
    const created = await suite.call(caller, 'POST', `${T}create-tasks-sfdc/`, {
      data: { Mission: 'TAM Create Tasks', cec, locale: 'TAM', tasks: data.map((row) => ({ ...row, selected: true })) },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ data: { counter: 2, messages: [] }, counter: 2, messages: [] });
    expect(
      tasks()
        .slice(before)
        .map((task) => task.Subject),
    ).toEqual([
      `Meeting: Cadence call via the original tracker (${caller})`,
      `Configuration: Alert tuning via the original tracker (${caller})`,
    ]);
  });

  it("refuses the dashboards' and tracker's calls in the spec's words", async () => {
    const message = async (url: string, body: unknown) => {
      const response = await suite.call('token', 'POST', url, body);
      return [response.statusCode, response.json().error.message];
    };
    expect(await message(`${D}get-dashboard/all`, { cec })).toEqual([400, 'Mission not specified in payload']);
    expect(await message(`${D}vote/`, { cec, Mission: 'Vote Twice', id: 'x', action: 'Vote' })).toEqual([
      400,
      'Unrecognized mission: Vote Twice',
    ]);
    expect(
      await message(`${D}get-dashboard/all`, { cec: 'proserv@demo.local', Mission: 'Show All Dashboards' }),
    ).toEqual([403, 'cec must be the email of the signed-in user']);
    expect(await message(`${D}get-dashboard/`, { Mission: 'Get Dashboard', cec, aid: '1' })).toEqual([
      400,
      'OAuth token not provided',
    ]);
    expect(await message(`${T}create-tasks-sfdc/`, { data: { cec, tasks: [] } })).toEqual([
      400,
      'Mission not specified in payload',
    ]);
    for (const due_date of ['9999-99-99', '2025-02-29'])
      expect(
        await message(`${T}create-tasks-sfdc/`, {
          data: { Mission: 'TAM Create Tasks', cec, tasks: [{ ...ROW, due_date }] },
        }),
      ).toEqual([400, `Row 2: due_date "${due_date}" is not a date (YYYY-MM-DD).`]);
    const notForm = await suite.call('token', 'POST', `${T}parse-logs-tam/`, { file: 'hours' });
    expect([notForm.statusCode, notForm.json().error.message]).toEqual([400, 'Send this call as a multipart form.']);
  });

  it('answers every original call a clear 4xx for bodies of the wrong shape, never a crash', async () => {
    const document = (await suite.app().app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { tags: string[] }>>;
    }>();
    const calls = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.tags.includes('compat'))
        .map(([method]) => ({ method: method.toUpperCase() as 'GET' | 'POST', path })),
    );
    const { token } = suite.customer();
    const bodies: unknown[] = [
      null,
      42,
      'text',
      [null, 7, 'x', [[]], { Mission: 7, OAuth: ['a'], cec: {} }],
      { no_todo_list2: 'not a list', Mission: 'AHC v7', cec, OAuth: token },
      { no_todo_list2: [{ aid: { nested: true } }, { Mission: 'AHC v7', cec, OAuth: token }] },
      { OAuth: token, OAuthToken: token, accountGroupId: 'no-such-group', testData: 'x', cec },
      { OAuth: token, aid: '1', Mission: 'Push Dashboard', cec, dashboardId: { $gt: '' }, id: ['x'] },
      { data: { Mission: 'TAM Create Tasks', cec, tasks: [null, 1, 'row', { hours_spent: 'many' }] } },
      { id: '../../etc/passwd', Mission: 'Dash Vote', cec, action: 'Vote' },
      // Names every plain object answers to, as a Mission or a path's value: looked up, never found.
      ...OBJECT_KEYS.flatMap((Mission) => [
        [{ aid: '1' }, { Mission, cec, OAuth: token }],
        { no_todo_list2: [{ aid: '1' }, { Mission, cec, OAuth: token }] },
        { Mission, cec, OAuth: token, OAuthToken: token, aid: '1', accountGroupId: '1', id: Mission },
        { data: { Mission, cec, tasks: [] } },
      ]),
      // A due date of the right pattern that is no day of the calendar.
      { data: { Mission: 'TAM Create Tasks', cec, tasks: [{ ...ROW, due_date: '9999-99-99' }] } },
      { data: { Mission: 'TAM Create Tasks', cec, tasks: [{ ...ROW, due_date: '2025-02-29' }] } },
    ];
    for (const { method, path } of calls) {
      const urls = ['Metrics-as', ...OBJECT_KEYS].map((value) => path.replace(/\{[^}]+\}/g, value));
      for (const url of path.includes('{') ? urls : urls.slice(0, 1))
        for (const body of method === 'GET' ? [undefined] : bodies) {
          const response = await suite.call('token', method, url, body as Record<string, unknown>);
          const label = `${method} ${url} ${JSON.stringify(body)} answered ${response.statusCode} ${response.body}`;
          expect(response.statusCode, label).toBeGreaterThanOrEqual(method === 'GET' && url !== urls[0] ? 400 : 200);
          expect(response.statusCode, label).toBeLessThan(500);
          if (response.statusCode >= 400) expect(response.json().error.message, label).toEqual(expect.any(String));
        }
    }
  });

  it("reads an original form only up to the parts the product's own upload takes, and says so past them", async () => {
    // 200,000 one-letter fields: about 13 MB, within the calls' body limit.
    const BOUNDARY = 'many-fields-0123';
    const formOf = (fields: Record<string, string>) => {
      const parts = Object.entries(fields).map(
        ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
      for (let index = 0; index < 200_000; index++)
        parts.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="f${index}"\r\n\r\nx\r\n`);
      return Buffer.from(`${parts.join('')}--${BOUNDARY}--\r\n`);
    };
    const forms = {
      [`${D}save-dashboard/`]: { Mission: 'Clone Dashboard', cec },
      [`${T}parse-logs-tam/`]: { selectedDate: WEEK },
    };
    for (const [url, fields] of Object.entries(forms)) {
      const response = await suite.call('token', 'POST', url, formOf(fields), {
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      });
      expect([response.statusCode, response.json().error.message], url).toEqual([
        413,
        expect.stringMatching(/^The form has more parts than this call takes: at most \d+ fields and \d+ files?\.$/),
      ]);
    }
  });

  it('holds a token to what it carries and to its life, and never writes it or the customer token to the logs', async () => {
    const mint = async (name: string, capabilities: string[]) => {
      const response = await suite.tam().request({
        method: 'POST',
        url: '/api/account/api-tokens',
        payload: { name, expiresInDays: 1, capabilities },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<CreatedApiToken>();
    };
    const bearer = (secret: string, url: string, payload: unknown) =>
      suite.app().app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${secret}` },
        payload: payload as Record<string, unknown>,
      });
    const { token } = suite.customer();
    const groups = { OAuth: token };
    const reportsOnly = await mint('Reports only', ['reporting']);
    const refused = await bearer(reportsOnly.secret, `${R}accountgroups7/`, groups);
    expect([refused.statusCode, refused.json().error.message]).toEqual([
      403,
      'This token does not carry Customer account groups.',
    ]);
    // A Mission whose report needs a capability the token lacks is refused by the report's own check.
    const ahc = await bearer(reportsOnly.secret, `${R}ahc7/`, {
      no_todo_list2: [{ aid: suite.customer().groups[0]?.aid }, { Mission: 'AHC v7', cec, OAuth: token }],
    });
    expect(ahc.statusCode).toBe(403);

    const expired = await mint('Expired script', ['customerToken']);
    await suite
      .app()
      .database.sql.executeSql("update api_tokens set expires_at = now() - interval '1 minute' where id = $1", [
        expired.token.id,
      ]);
    const revoked = await mint('Revoked script', ['customerToken']);
    await suite.tam().request({ method: 'DELETE', url: `/api/account/api-tokens/${revoked.token.id}` });
    for (const secret of [expired.secret, revoked.secret]) {
      const answer = await bearer(secret, `${R}accountgroups7/`, groups);
      expect([answer.statusCode, answer.json().error.message]).toEqual([
        401,
        'This API token is not valid: it is unknown, expired or revoked.',
      ]);
    }
    const logs = suite.app().logs.join('\n');
    expect(logs).toContain(R);
    for (const secret of [suite.secret(), reportsOnly.secret, expired.secret, revoked.secret, token])
      expect(logs).not.toContain(secret);
  });
});

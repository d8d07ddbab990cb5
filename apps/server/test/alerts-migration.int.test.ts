import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { TARGET_TOKEN_REFUSED, type MigrationPlan, type MigrationRules } from '@ce/contract';
import { PlatformError } from '@ce/platform-client';
import { CustomerService } from '../src/modules/customer/customer.service.js';
import { DATABASES, signedInClient } from './build-test-app.js';
import { MIGRATED, migrationSuite } from './support/alerts-migration.js';

describe.each(DATABASES)('alerts migration (%s)', (kind) => {
  const suite = migrationSuite(kind);
  const { world, source, saas, staging, ruleIdOf, rulesOf, snapshot, request, start, finished, undo } = suite;
  const tam = () => suite.tam();
  const acme = () => suite.acme();

  it("lists the source's rules with their condition, tests and notifications in words, and its windows", async () => {
    const response = await tam().request({
      method: 'POST',
      url: '/api/alerts-migration/rules',
      payload: { token: acme().token, organization: acme().organization, aid: source().aid },
    });
    expect(response.statusCode, response.body).toBe(200);
    const listed = response.json<MigrationRules>();
    expect(listed.accountGroupName).toBe('Acme - Data Centers');
    expect(listed.rules.find((rule) => rule.ruleName === 'Migration: portal latency')).toMatchObject({
      condition: '2 of 3 rounds: responseTime >= 500 ms',
      severity: 'major',
      isDefault: false,
      tests: ['Migration portal', 'Migration checkout'],
      notifications: ['Email: noc@acme.example.com', 'Webhook: NOC webhook', 'Integration: pager-duty'],
    });
    expect(listed.rules.find((rule) => rule.ruleName === 'Migration: default HTTP rule')?.isDefault).toBe(true);
    expect(listed.windows.find((window) => window.name === 'Migration: portal freeze')?.ruleIds).toEqual(
      expect.arrayContaining(MIGRATED.map(ruleIdOf)),
    );
  });

  it('refuses a target equal to the source, no rules, and a refused token, in words', async () => {
    const same = await tam().request({
      method: 'POST',
      url: '/api/alerts-migration/plan',
      payload: request({ targets: [{ aid: source().aid }] }),
    });
    expect(same.statusCode).toBe(400);
    expect(same.body).toContain('A target cannot be the source account group');
    const none = await tam().request({
      method: 'POST',
      url: '/api/alerts-migration/plan',
      payload: request({ ruleIds: [] }),
    });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Select at least one alert rule');
    const revoked = world().tokens.find((candidate) => candidate.kind === 'revoked')?.token ?? '';
    const refused = await tam().request({
      method: 'POST',
      url: '/api/alerts-migration/rules',
      payload: { token: revoked, organization: acme().organization, aid: source().aid },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.message).toBe('Invalid OAuth token. Please check your token and try again.');
  });

  it('plans without writing: create with a test and an integration dropped, unchanged, and a conflict with its differences', async () => {
    const before = snapshot(saas().aid);
    const calls = world().tests.length;
    const response = await tam().request({
      method: 'POST',
      url: '/api/alerts-migration/plan',
      payload: request({
        ruleIds: [...MIGRATED, 'Migration: checkout availability'].map(ruleIdOf),
        options: { includeWindows: true },
      }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const plan = response.json<MigrationPlan>();
    const item = (name: string) => plan.items.find((candidate) => candidate.sourceName === name);
    expect(item('Migration: portal latency')).toMatchObject({
      status: 'create',
      accountGroupName: 'Acme - SaaS Apps',
      dropped: [
        { kind: 'test', name: 'Migration checkout', reason: 'No http-server test of this name in Acme - SaaS Apps' },
      ],
    });
    expect(item('Migration: portal latency')?.resolved.map((reference) => reference.name)).toEqual([
      'Migration portal',
      'NOC webhook',
    ]);
    expect(item('Migration: portal errors')).toMatchObject({ status: 'unchanged' });
    expect(item('Migration: portal availability')).toMatchObject({ status: 'conflict' });
    expect(item('Migration: portal availability')?.differences).toEqual([
      { field: 'roundsViolatingOutOf', before: '5', after: '3' },
      { field: 'severity', before: 'critical', after: 'major' },
      {
        field: 'notifications',
        before: 'Email: noc@acme.example.com, Webhook: NOC webhook',
        after: 'Email: noc@acme.example.com',
      },
    ]);
    expect(item('Migration: checkout availability')?.dropped).toEqual([
      { kind: 'test', name: 'Migration checkout', reason: 'No http-server test of this name in Acme - SaaS Apps' },
      {
        kind: 'integration',
        name: 'Legacy pager bridge',
        reason: 'No integration of this name in the target organization',
      },
    ]);
    expect(item('Migration: portal freeze')).toMatchObject({ kind: 'suppression-window', status: 'create' });
    expect(plan.writes).toBe(3);
    // The Org Admin token's user may write alert rules and windows in the target: nothing stands in the way.
    expect(plan.problems).toEqual([]);
    expect(snapshot(saas().aid)).toEqual(before);
    expect(world().tests.length).toBe(calls);
  });

  it('copies into two groups as decided, with results, Webex, an audit entry per write, then undoes exactly', async () => {
    const before = snapshot(source().aid, saas().aid, staging().aid);
    const run = await finished(
      (
        await start(
          request({
            targets: [{ aid: saas().aid }, { aid: staging().aid }],
            options: { includeWindows: true },
            decisions: [{ ruleId: ruleIdOf('Migration: portal availability'), aid: saas().aid, choice: 'update' }],
          }),
        )
      ).id,
    );
    expect(run.status).toBe('done');
    const done = run.items.filter((item) => item.status === 'done');
    // SaaS Apps: latency created, availability updated, the window; Staging: all three rules created.
    expect(done.map((item) => `${item.accountGroupName}: ${item.action} ${item.subject}`).sort()).toEqual(
      [
        'Acme - SaaS Apps: create-rule Migration: portal latency',
        'Acme - SaaS Apps: create-window Migration: portal freeze',
        'Acme - SaaS Apps: update-rule Migration: portal availability',
        'Acme - Staging: create-rule Migration: portal availability',
        'Acme - Staging: create-rule Migration: portal errors',
        'Acme - Staging: create-rule Migration: portal latency',
      ].sort(),
    );
    expect(
      run.items.find((item) => item.subject === 'Migration: portal errors' && item.aid === saas().aid),
    ).toMatchObject({ status: 'skipped', note: 'Identical' });
    const created = world().alertRules.find(
      (rule) => rule.aid === saas().aid && rule.ruleName === 'Migration: portal latency',
    );
    expect(created?.ruleId).toBe(
      done.find((item) => item.subject === 'Migration: portal latency' && item.aid === saas().aid)?.resultId,
    );
    const portal = world().tests.find((test) => test.aid === saas().aid && test.testName === 'Migration portal');
    expect(created?.testIds).toEqual([portal?.testId]);
    // Within one organization the recipients are the organization's own: kept.
    expect(created?.notificationEmails).toEqual(['noc@acme.example.com']);
    expect(created?.integrations).toEqual([
      expect.objectContaining({ kind: 'thirdParty', integrationType: 'pager-duty' }),
      expect.objectContaining({
        kind: 'webhook',
        integrationName: 'NOC webhook',
        integrationId: expect.stringMatching(/3$/),
      }),
    ]);
    expect(
      world().alertRules.find((rule) => rule.aid === saas().aid && rule.ruleName === 'Migration: portal availability')
        ?.severity,
    ).toBe('major');

    const csv = await tam().request({ method: 'GET', url: `/api/alerts-migration/runs/${run.id}/results?format=csv` });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('Acme - SaaS Apps,Alert rule,Migration: portal latency,Create,done');
    const xlsx = await tam().request({ method: 'GET', url: `/api/alerts-migration/runs/${run.id}/results` });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(workbook.getWorksheet('Results')?.rowCount).toBe(run.items.length + 1);
    const message = suite
      .app()
      .sandbox?.webex.messages.find((candidate) =>
        candidate.markdown?.includes('**Alerts migration (copy)** for Acme Corporation'),
      );
    expect(message?.toPersonEmail).toBe('tam@demo.local');
    expect(message?.markdown).toContain('Done: 6');
    // The run's page says where its summary stands.
    const shown = await tam().request({ method: 'GET', url: `/api/alerts-migration/runs/${run.id}` });
    expect(shown.json<{ message: unknown }>().message).toEqual({ status: 'sent', error: null });

    const superUser = await signedInClient(suite.app().app, 'superuser@demo.local');
    const audit = (await superUser.request({ method: 'GET', url: '/api/audit-log' })).json().entries as {
      action: string;
      detail: { changeSet?: string };
    }[];
    expect(audit.filter((entry) => entry.detail.changeSet === run.id)).toHaveLength(6);

    const undone = await undo(run.id);
    expect(undone.status).toBe('done');
    expect(undone.totals).toMatchObject({ done: 6, failed: 0 });
    expect(snapshot(source().aid, saas().aid, staging().aid)).toEqual(before);
    const again = await tam().request({
      method: 'POST',
      url: `/api/alerts-migration/runs/${run.id}/undo`,
      payload: { token: acme().token },
    });
    expect(again.statusCode).toBe(409);
  });

  it('moves: the source rules go only once every target took them, and undo brings them back', async () => {
    const before = snapshot(source().aid, saas().aid, staging().aid);
    const run = await finished(
      (
        await start(
          request({
            ruleIds: ['Migration: portal latency', 'Migration: portal availability'].map(ruleIdOf),
            targets: [{ aid: saas().aid }, { aid: staging().aid }],
            options: { mode: 'move' },
          }),
        )
      ).id,
    );
    expect(run.status).toBe('done');
    // Availability's conflict in SaaS Apps was not decided: it stays in the source; latency moved.
    const deletions = run.items.filter((item) => item.action === 'delete-rule');
    expect(deletions.map((item) => [item.subject, item.status, item.note])).toEqual([
      ['Migration: portal latency', 'done', 'Deleted'],
      ['Migration: portal availability', 'skipped', 'Kept in the source: not every target took this rule'],
    ]);
    expect(rulesOf(source().aid).map((rule) => rule.ruleName)).not.toContain('Migration: portal latency');
    expect(rulesOf(source().aid).map((rule) => rule.ruleName)).toContain('Migration: portal availability');

    await undo(run.id);
    expect(snapshot(source().aid, saas().aid, staging().aid)).toEqual(before);
  });

  it("tells a refused target token apart from the customer's, in the plan and at the start", async () => {
    const globex = world().organizations[1];
    const target = world().accountGroups.find((candidate) => candidate.orgId === globex?.orgId);
    const revoked = world().tokens.find((candidate) => candidate.kind === 'revoked')?.token ?? '';
    if (!globex || !target) throw new Error('the demo world has a second organization');
    const payload = request({
      ruleIds: ['Migration: portal latency'].map(ruleIdOf),
      targets: [{ aid: target.aid }],
      targetOrganization: { token: revoked, organization: { id: globex.orgId, name: globex.name } },
    });
    for (const url of ['/api/alerts-migration/plan', '/api/alerts-migration/runs']) {
      const refused = await tam().request({ method: 'POST', url, payload });
      expect(refused.statusCode, url).toBe(401);
      expect(refused.json().error, url).toMatchObject({ code: 'invalid_target_token', message: TARGET_TOKEN_REFUSED });
    }
    // The customer's own token refused is the customer's (the web app then clears the chosen customer).
    const own = await tam().request({
      method: 'POST',
      url: '/api/alerts-migration/plan',
      payload: { ...payload, token: revoked },
    });
    expect(own.statusCode).toBe(401);
    expect(own.json().error.code).toBe('invalid_platform_token');
  });

  it('tells which token was refused when one is refused in the middle of a plan that reads with both', async () => {
    const customer = new CustomerService(suite.app().services.platform);
    const revoked = world().tokens.find((candidate) => candidate.kind === 'revoked')?.token ?? '';
    const refusedMidway = async () => {
      throw new PlatformError(401, 'Unauthorized');
    };
    // The customer's token still works: the second organization's was the one refused.
    await expect(customer.readForTwo(acme().token, refusedMidway)).rejects.toMatchObject({
      code: 'invalid_target_token',
      message: TARGET_TOKEN_REFUSED,
    });
    // The customer's token no longer works: it is the customer's refusal.
    await expect(customer.readForTwo(revoked, refusedMidway)).rejects.toMatchObject({ code: 'invalid_platform_token' });
    // What is not a refusal stays what it is.
    await expect(
      customer.readForTwo(acme().token, async () => {
        throw new PlatformError(500, 'Internal Server Error');
      }),
    ).rejects.toMatchObject({ code: 'platform_error' });
  });

  it("copies into another organization with its own token: webhooks by name, the source's recipients and third-party integrations dropped", async () => {
    const globex = world().organizations[1];
    const globexToken =
      world().tokens.find((token) => token.kind === 'org-admin' && token.orgId === globex?.orgId)?.token ?? '';
    const target = world().accountGroups.find((candidate) => candidate.orgId === globex?.orgId);
    if (!globex || !target) throw new Error('the demo world has a second organization');
    const before = snapshot(source().aid, target.aid);
    const payload = request({
      ruleIds: ['Migration: portal latency'].map(ruleIdOf),
      targets: [{ aid: target.aid }],
      targetOrganization: { token: globexToken, organization: { id: globex.orgId, name: globex.name } },
    });
    const plan = (
      await tam().request({ method: 'POST', url: '/api/alerts-migration/plan', payload })
    ).json<MigrationPlan>();
    expect(
      plan.items[0]?.dropped.map((reference) => `${reference.kind} ${reference.name}: ${reference.reason}`),
    ).toEqual([
      'test Migration portal: No http-server test of this name in ' + target.accountGroupName,
      'test Migration checkout: No http-server test of this name in ' + target.accountGroupName,
      "recipient noc@acme.example.com: An email address of the source's organization: kept in another organization only when asked",
      'integration pager-duty: A third-party integration cannot be matched in another organization: add it there again',
      'integration NOC webhook: No integration of this name in the target organization',
    ]);
    expect(plan.problems).toEqual([]);
    // Kept when asked: the plan then drops no recipient.
    const keeping = (
      await tam().request({
        method: 'POST',
        url: '/api/alerts-migration/plan',
        payload: { ...payload, options: { ...payload.options, keepRecipients: true } },
      })
    ).json<MigrationPlan>();
    expect(keeping.items[0]?.dropped.filter((reference) => reference.kind === 'recipient')).toEqual([]);
    const run = await finished((await start(payload)).id);
    expect(run).toMatchObject({ status: 'done', targetOrganizationName: globex.name, totals: { done: 1 } });
    const copied = world().alertRules.find(
      (rule) => rule.aid === target.aid && rule.ruleName === 'Migration: portal latency',
    );
    // A Globex rule does not notify Acme's NOC.
    expect(copied).toMatchObject({ testIds: [], notificationEmails: [] });
    expect(copied?.integrations ?? []).toEqual([]);

    const missing = await tam().request({
      method: 'POST',
      url: `/api/alerts-migration/runs/${run.id}/undo`,
      payload: { token: acme().token },
    });
    expect(missing.statusCode).toBe(400);
    await undo(run.id, { token: acme().token, targetToken: globexToken });
    expect(snapshot(source().aid, target.aid)).toEqual(before);
  });
});

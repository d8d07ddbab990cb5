import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  untilFinished,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

const METRICS_TOKEN = 'scrape-me-if-you-can-0123456789';

/** The value of one series in Prometheus' text format (0 when the series is not there yet). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const labelText = line.slice(name.length + 1, line.lastIndexOf('}'));
    if (wanted.every((pair) => labelText.split(',').includes(pair)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('GET /metrics', () => {
  let testApp: TestApp;
  let tam: TestClient;

  const scrape = async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.body;
  };

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { METRICS_TOKEN, INSTANCE_ID: 'metrics-test-1' });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('answers only a caller with the bearer token', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${METRICS_TOKEN}`]) {
      const refused = await testApp.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(refused.statusCode, authorization).toBe(401);
      expect(refused.body).not.toContain('platform_calls_total');
    }
  });

  it('counts platform calls per organization, requests by route and jobs by outcome, moving after a report', async () => {
    const customer = await sandboxCustomer(testApp, tam);
    const organization = customer.organization.id;
    const before = await scrape();
    const queue = 'reports.generate.alerts-config';
    const created = await tam.request({
      method: 'POST',
      url: '/api/reports',
      payload: {
        kind: 'alerts-config',
        token: customer.token,
        organization: customer.organization,
        accountGroups: customer.groups.slice(0, 2),
        options: {},
      },
    });
    expect(created.statusCode).toBe(202);
    const id = created.json<{ id: string }>().id;
    const done = await untilFinished(async () =>
      (await tam.request({ method: 'GET', url: `/api/reports/${id}` })).json<{ status: string }>(),
    );
    expect(done.status).toBe('done');
    const after = await scrape();

    const calls = (text: string) => sample(text, 'platform_calls_total', { organization, status: '200' });
    expect(calls(after)).toBeGreaterThan(calls(before));
    const jobs = (text: string) => sample(text, 'job_duration_seconds_count', { queue, outcome: 'completed' });
    expect(jobs(after)).toBe(jobs(before) + 1);
    const requests = (text: string) =>
      sample(text, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/reports',
        status_code: '202',
      });
    expect(requests(after)).toBe(requests(before) + 1);
    // Every series names the instance; the queue, budget and recovery families are declared.
    expect(after).toMatch(/platform_calls_total\{[^}]*instance_id="metrics-test-1"/);
    for (const family of [
      'platform_rate_limited_total',
      'platform_budget_wait_seconds_total',
      'job_queue_depth',
      'job_queue_oldest_age_seconds',
      'job_lease_recoveries_total',
    ])
      expect(after, family).toContain(`# TYPE ${family} `);
    // No route series carries an id: routes are named by their pattern.
    expect(after).not.toContain(id);
  });
});

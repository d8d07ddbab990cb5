import type { FastifyInstance } from 'fastify';
import {
  AggregatorRegistry,
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';
import type { PlatformObserver } from '@ce/platform-client';
import type { SqlExecutor } from './database.js';
import { sameSecret } from './same-secret.js';

/** A registry's counts as data: what crosses from a jobs thread to the main thread. */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** The organization a limiter key names; calls made before it is known (a token's first calls) are 'unknown'. */
const organizationOf = (key: string) => (key.startsWith('org:') ? key.slice(4) : 'unknown');

/**
 * The process's metrics in Prometheus' text format (prom-client): HTTP request durations by route,
 * platform calls and 429s per organization, time waited for the organizations' budgets, job queue depth
 * and oldest job age per queue, job durations and outcomes, and lease recoveries. One registry per app,
 * so several apps in one process (tests) keep their own counts. An instance's jobs thread (decision 0035) keeps
 * its own, without the process's and the queue's (`processWide: false`); the main thread serves both, added up.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly others: (() => Promise<MetricsJson>)[] = [];
  private readonly requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly platformCalls = new Counter({
    name: 'platform_calls_total',
    help: 'Answers from the platform API, by organization and HTTP status',
    labelNames: ['organization', 'status'],
    registers: [this.registry],
  });
  private readonly platform429 = new Counter({
    name: 'platform_rate_limited_total',
    help: 'Platform answers 429 (rate limit), by organization',
    labelNames: ['organization'],
    registers: [this.registry],
  });
  private readonly budgetWait = new Counter({
    name: 'platform_budget_wait_seconds_total',
    help: "Time calls waited for a slot in their organization's rate budget",
    labelNames: ['organization'],
    registers: [this.registry],
  });
  private readonly jobDurations = new Histogram({
    name: 'job_duration_seconds',
    help: 'Jobs taken from the queue, by queue and outcome (completed or failed)',
    labelNames: ['queue', 'outcome'],
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
    registers: [this.registry],
  });
  private readonly recoveries = new Counter({
    name: 'job_lease_recoveries_total',
    help: 'Jobs sent back to the queue after their worker or queue job was lost, by kind',
    labelNames: ['kind'],
    registers: [this.registry],
  });

  constructor(sql: SqlExecutor, instanceId: string, { processWide = true } = {}) {
    this.registry.setDefaultLabels({ instance_id: instanceId });
    if (!processWide) return;
    collectDefaultMetrics({ register: this.registry });
    const oldest = new Gauge({
      name: 'job_queue_oldest_age_seconds',
      help: 'Age of the oldest job waiting in each queue',
      labelNames: ['queue'],
      registers: [],
    });
    // Read at each scrape from pg-boss's own table: the same numbers on every instance.
    new Gauge({
      name: 'job_queue_depth',
      help: 'Jobs waiting in each queue (created or to retry)',
      labelNames: ['queue'],
      registers: [this.registry],
      async collect() {
        const { rows } = await sql.executeSql(
          `select name, count(*)::int as depth,
                  coalesce(extract(epoch from now() - min(created_on)), 0)::float as oldest
             from pgboss.job where state in ('created', 'retry') group by name`,
        );
        this.reset();
        oldest.reset();
        for (const row of rows as { name: string; depth: number; oldest: number }[]) {
          this.set({ queue: row.name }, Number(row.depth));
          oldest.set({ queue: row.name }, Number(row.oldest));
        }
      },
    });
    this.registry.registerMetric(oldest);
  }

  /** What the platform client reports: each answer, and each wait for a slot. */
  readonly platform: PlatformObserver = {
    answered: (key, status) => {
      const organization = organizationOf(key);
      this.platformCalls.inc({ organization, status: String(status) });
      if (status === 429) this.platform429.inc({ organization });
    },
    waitedForBudget: (key, ms) => {
      if (ms > 0) this.budgetWait.inc({ organization: organizationOf(key) }, ms / 1000);
    },
  };

  job(queue: string, outcome: 'completed' | 'failed', seconds: number): void {
    this.jobDurations.observe({ queue, outcome }, seconds);
  }

  recovered(kind: string, count: number): void {
    if (count > 0) this.recoveries.inc({ kind }, count);
  }

  /** Counts kept elsewhere in this instance (its jobs thread), served with this registry's. */
  include(source: () => Promise<MetricsJson>): void {
    this.others.push(source);
  }

  /** Every count of the instance, in Prometheus' text format: this registry's and those included, added up. */
  async text(): Promise<string> {
    if (this.others.length === 0) return this.registry.metrics();
    const all = await Promise.all([this.registry.getMetricsAsJSON(), ...this.others.map((source) => source())]);
    // Adding up leaves out the process's start time (prom-client omits it from sums): it is this thread's.
    const started = this.registry.getSingleMetric('process_start_time_seconds')
      ? await this.registry.getSingleMetricAsString('process_start_time_seconds')
      : '';
    return `${await AggregatorRegistry.aggregate(all).metrics()}${started ? `${started}\n` : ''}`;
  }

  /**
   * Times every request by its route pattern (never the raw URL: ids would make endless series), and
   * serves GET /metrics to a caller with the bearer token; without a configured token it is not served.
   */
  register(app: FastifyInstance, token: string | null): void {
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      this.requests.observe(
        { method: request.method, route, status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });
    if (token === null) return;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      // Compared in constant time whatever its length: the answer's time tells nothing of the token.
      if (!sameSecret(request.headers.authorization ?? '', `Bearer ${token}`)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer')
          .send({ error: { code: 'unauthorized', message: 'A metrics token is required' } });
      }
      return reply.type(this.registry.contentType).send(await this.text());
    });
  }
}

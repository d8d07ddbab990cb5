/**
 * bench:review's build (bench/review.ts starts it): one review pack built as the report kind builds it, in a process
 * that does only that, so that its peak memory is the build's. It reads what to build from its standard input (JSON:
 * the database, the platform's address and the customer's token, the server's address and a TAM's sign-in for the
 * customer's timeline, the customer, its account groups, the requester and the period) and prints JSON: the pack's
 * slides, its files, the build's wall time and the process's peak resident memory (before the build, and in all).
 *
 * The build is the `review-pack` kind's generator (makeReviewPack: the stored rows, the platform's outages, the PDF
 * on the report kit's PDF thread, the deck, the JSON), given what a worker gives it: the database, a platform
 * session on the report's background lane, the requester as the users table has them, and the customer's timeline.
 * The timeline is the customer page's, read from the server (GET /api/customers/:id/timeline): it is the modules'
 * (runs, restores, migrations, hours...), which only a whole server registers.
 */
import { text } from 'node:stream/consumers';
import { drizzle } from 'drizzle-orm/node-postgres';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { roleFromLocale, type CustomerTimeline } from '@ce/contract';
import { PlatformClient } from '@ce/platform-client';
import * as schema from '../apps/server/src/db/schema.js';
import type { SourcedEntry, TimelineQuery } from '../apps/server/src/core/timeline.js';
import { reviewPackGenerator } from '../apps/server/src/modules/reports/kinds/review-pack/generator.js';
import { planSlides, type ReviewPack } from '../apps/server/src/modules/review/index.js';
import { HttpClient } from '../apps/server/test/child-server.js';

export interface ReviewBuildInput {
  databaseUrl: string;
  platformUrl: string;
  token: string;
  serverUrl: string;
  email: string;
  password: string;
  organization: { id: string; name: string };
  accountGroups: { aid: string; accountGroupName: string }[];
  userId: string;
  period: { kind: 'quarter'; from: string; to: string };
}

export interface ReviewBuildOutput {
  slides: number;
  files: { filename: string; kb: number }[];
  wallS: number;
  rssMb: number;
  /** The process's peak before the build: Node, tsx, the modules, the database pool, the sign-in. */
  rssBeforeMb: number;
}

const DAY_MS = 86_400_000;
/** The periods the customer page's timeline offers, in days. */
const TIMELINE_DAYS = [7, 30, 90, 365];

const input = JSON.parse(await text(process.stdin)) as ReviewBuildInput;
const pool = new pg.Pool({ connectionString: input.databaseUrl, max: 4 });
try {
  const db = drizzle(pool, { schema });
  const [row] = await db
    .select({ id: schema.users.id, email: schema.users.email, name: schema.users.name, locale: schema.users.locale })
    .from(schema.users)
    .where(eq(schema.users.id, input.userId));
  if (!row) throw new Error('the requester is not in the database');
  const requester = { ...row, role: roleFromLocale(row.locale) };

  const server = new HttpClient(input.serverUrl);
  await server.call('GET', '/api/app-info');
  const signedIn = await server.call('POST', '/api/session', { email: input.email, password: input.password });
  if (signedIn.status !== 200) throw new Error(`sign-in for the timeline failed: ${signedIn.status}`);
  const timeline = async (query: TimelineQuery): Promise<SourcedEntry[]> => {
    const since = query.since.getTime();
    const days = TIMELINE_DAYS.find((count) => Date.now() - count * DAY_MS <= since) ?? 365;
    const answer = await server.call(
      'GET',
      `/api/customers/${query.organizationId}/timeline?everyone=${query.userId === null}&days=${days}`,
    );
    if (answer.status !== 200) throw new Error(`the timeline answered ${answer.status}`);
    const read = answer.body as CustomerTimeline;
    return read.entries
      .filter((entry) => Date.parse(entry.createdAt) >= since)
      .map((entry) => ({ ...entry, organizationName: read.organizationName ?? '' }));
  };

  const platform = new PlatformClient({ baseUrl: input.platformUrl });
  const rssBeforeMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const started = performance.now();
  const generated = await reviewPackGenerator({
    platform: platform.as({ token: input.token, organizationId: input.organization.id, lane: 'background' }),
    organization: input.organization,
    accountGroups: input.accountGroups,
    options: { period: input.period },
    requestedBy: requester.email,
    now: new Date(),
    progress: async () => undefined,
    stored: { db, requester, timeline },
  });
  const wallS = (performance.now() - started) / 1000;
  const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const json = generated.artifacts.find((artifact) => artifact.filename.endsWith('.json'));
  if (!json) throw new Error('the pack has no JSON');
  const output: ReviewBuildOutput = {
    slides: planSlides(JSON.parse(json.content.toString('utf8')) as ReviewPack).length,
    files: generated.artifacts.map((artifact) => ({
      filename: artifact.filename,
      kb: Math.round(artifact.content.length / 1024),
    })),
    wallS,
    rssMb,
    rssBeforeMb,
  };
  process.stdout.write(JSON.stringify(output));
} finally {
  await pool.end();
}

/**
 * bench:backup - a backup of the largest account group of the sandbox's large world, made as the backup job
 * makes it (each list once, each item's detail once, every item into the archive as it is read, the archive's
 * bytes hashed and counted in chunks as the job stores them). The platform is the product with the large
 * sandbox in a child process (20 ms latency, a limit set so the backup spans six 10-second windows).
 *
 * calls/min = the calls the sandbox answered for the organization (429s included) over the fewest the backup
 *   can make (bench/backup-minimum.ts).
 * wall/ideal = the backup's time over calls / limit (the time the limit alone imposes).
 * rss-mb = the peak resident memory of this process, which read the group and wrote the archive.
 * Last line: `backup: items=<n> calls/min=<m> wall/ideal=<w> rss-mb=<x>`.
 */
import { createHash } from 'node:crypto';
import { BackupArchiveWriter } from '../apps/server/src/modules/backup-restore/archive.js';
import { readGroup } from '../apps/server/src/modules/backup-restore/read.js';
import { pacedCustomer, platformStats, startLargeSandbox } from './platform-child.js';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 10_000);
const WINDOWS = Number(process.env.BENCH_WINDOWS ?? 6);

const { origin, stop } = await startLargeSandbox();
try {
  const {
    facts: group,
    limit,
    admin,
    started,
    orgId,
    session,
  } = await pacedCustomer<{
    aid: string;
    name: string;
    tests: number;
    rules: number;
    windows: number;
    dashboards: number;
    minimum: number;
  }>(origin, 'bench/backup-minimum.ts', [], { latencyMs: LATENCY_MS, windowMs: WINDOW_MS, windows: WINDOWS });
  const writer = new BackupArchiveWriter({
    organization: { id: orgId, name: admin.organizationName },
    accountGroup: { aid: group.aid, accountGroupName: group.name },
    createdAt: new Date().toISOString(),
    createdBy: 'tam@demo.local',
  });
  const hash = createHash('sha256');
  let size = 0;
  let items = 0;
  const store = (bytes: Buffer) => {
    hash.update(bytes);
    size += bytes.length;
  };
  await readGroup(session, group.aid, (item) => {
    items += 1;
    store(writer.add(item));
  });
  store(writer.finish().bytes);
  const wallMs = performance.now() - started;
  const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);

  const { windows, refused, calls } = await platformStats(origin, orgId);
  const idealMs = (calls / limit) * WINDOW_MS;
  console.log(
    `backup: ${group.name} of the large world (${group.tests} tests, ${group.rules} rules, ${group.windows} windows, ${group.dashboards} dashboards); ${LATENCY_MS} ms latency, limit ${limit} per ${WINDOW_MS / 1000} s window`,
  );
  console.log(
    `  ${items} items, archive ${Math.round(size / 1024)} KB (sha256 ${hash.digest('hex').slice(0, 12)}…); ${calls} calls (${refused} refused with 429) against a minimum of ${group.minimum}, over ${windows.length} windows [${windows.map((window) => window.count).join(', ')}], in ${(wallMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `backup: items=${items} calls/min=${(calls / group.minimum).toFixed(2)} wall/ideal=${(wallMs / idealMs).toFixed(2)} rss-mb=${peakMb}`,
  );
} finally {
  stop();
}

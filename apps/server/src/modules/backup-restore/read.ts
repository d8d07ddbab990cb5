import type { PlatformSession } from '@ce/platform-client';
import type { BackupItem } from './archive.js';
import { BACKUP_KIND_LIST } from './kinds/index.js';
import type { ReadContext } from './kinds/kind.js';

/**
 * Reads one account group's configuration as backup items, kind by kind in the kinds' order (kinds/), each
 * list once and each item's detail once, paced by the organization's limiter, and hands each item over as
 * soon as it is read (the caller writes it into the archive and lets it go). References are by name in
 * `config` (agents, alert rules, tests, tags) and by id in `server`.
 */
export async function readGroup(
  session: PlatformSession,
  aid: string,
  emitItem: (item: BackupItem) => void,
): Promise<{ agents: Map<string, string> }> {
  // Keys name items across groups; two of a kind with one name (two dashboards called "Overview") get "(2)".
  const seen = new Map<string, number>();
  const emit = (item: BackupItem) => {
    const id = `${item.kind}\u0000${item.key}`;
    const count = (seen.get(id) ?? 0) + 1;
    seen.set(id, count);
    emitItem(count === 1 ? item : { ...item, key: `${item.key} (${count})` });
  };
  // The group's agents by id, to name those a dashboard's widgets filter on (read once, beside the tests).
  const agents = session.agents
    .list({ aid })
    .then((list) => new Map(list.map((agent): [string, string] => [agent.agentId, agent.agentName])));
  agents.catch(() => undefined);
  const context: ReadContext = { session, aid, emit, agents, testKeys: new Map(), labelNames: new Map() };
  for (const { read } of BACKUP_KIND_LIST) await read?.(context);
  return { agents: new Map(await agents) };
}

import { PATHS } from '@ce/contract';
import type { TimelineSource } from '../../core/timeline.js';
import type { DashboardsRepository } from './dashboards.repository.js';

/** The dashboards pushed into one organization, for its page: which dashboard, into which group, by whom. */
export function pushTimeline(repository: DashboardsRepository): TimelineSource {
  return {
    tools: ['dashboards'],
    capability: 'tools',
    async timeline(query) {
      const rows = await repository.pushTimeline(query);
      return rows.map(({ push, title, name }) => ({
        id: push.id,
        tool: 'dashboards',
        what: `Dashboard "${title}" pushed`,
        accountGroups: [push.accountGroupName],
        person: { name: name || push.userEmail, email: push.userEmail },
        createdAt: push.createdAt.toISOString(),
        status: push.status,
        path: PATHS.dashboards,
        organizationName: push.organizationName,
      }));
    },
  };
}

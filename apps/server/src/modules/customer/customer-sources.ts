import { PATHS } from '@ce/contract';
import { personOf, type SourcedEntry, type TimelineQuery, type TimelineSource } from '../../core/timeline.js';
import type { CustomerOverviewRepository } from './customer-overview.repository.js';

/** A check's id in words: "inactive-users" is "Inactive users". */
export const checkWords = (id: string) => `${id.charAt(0).toUpperCase()}${id.slice(1).replaceAll('-', ' ')}`;

/** Hours in words: "2.5 h". */
export const hoursWords = (hours: number) => `${Math.round(hours * 100) / 100} h`;

const customerPath = (organizationId: string, anchor: string) =>
  `${PATHS.customers}/${encodeURIComponent(organizationId)}#${anchor}`;

/** The waivers made for a customer, on its page: who waived what, until when (those who may waive see them). */
export function waiverTimeline(repository: CustomerOverviewRepository): TimelineSource {
  return {
    tools: ['waivers'],
    capability: 'healthCheck',
    async timeline(query: TimelineQuery): Promise<SourcedEntry[]> {
      const rows = await repository.waiversMade(query);
      return rows.map(({ waiver, ...owner }) => ({
        id: waiver.id,
        tool: 'waivers',
        what: `Waived: ${waiver.itemName ?? 'the whole check'} (${checkWords(waiver.checkId)}) until ${waiver.expiresAt.toISOString().slice(0, 10)}`,
        accountGroups: [],
        person: personOf(owner),
        createdAt: waiver.createdAt.toISOString(),
        status: 'done',
        path: customerPath(query.organizationId, 'findings-heading'),
        organizationName: '',
      }));
    },
  };
}

/** The hours the time tracker logged on a customer's linked engagements, on its page. */
export function hoursTimeline(repository: CustomerOverviewRepository): TimelineSource {
  return {
    tools: ['hours'],
    capability: 'tools',
    async timeline(query: TimelineQuery): Promise<SourcedEntry[]> {
      const rows = await repository.hours(query);
      return rows.map(({ hours, ...owner }) => ({
        id: hours.id,
        tool: 'hours',
        what: `${hoursWords(hours.hours)} logged on ${hours.engagementId} (${hours.workDate})`,
        accountGroups: [],
        person: personOf(owner),
        createdAt: hours.createdAt.toISOString(),
        status: 'done',
        path: PATHS.timeTracking,
        organizationName: '',
      }));
    },
  };
}

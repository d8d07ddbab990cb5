import { z } from 'zod';

/**
 * Jobs ahead of a queued one at its organization's budget: the organization's reports, runs and backups
 * (anyone's) that run or were queued before it. Null once it runs or ended. Every job of an organization
 * shares its one rate budget, so this is how long a queued job waits, in jobs.
 */
export const jobsAheadSchema = z.number().int().nonnegative().nullable();

/** What a job page says of a job under way: where it waits, or how far it is. */
export interface JobLineInput {
  status: 'queued' | 'running' | 'done' | 'failed';
  ahead: number | null;
  organizationName: string;
  /** Done of total, in `unit` ("calls", "steps"); no count while the total is not known. */
  done: number;
  total: number;
  unit: string;
}

/**
 * "Queued: 3 jobs ahead for Acme Corporation", "Queued: next for Acme Corporation", "Running: 120 of 380 calls";
 * null for a job that ended (its page says how it ended).
 */
export function jobLine({ status, ahead, organizationName, done, total, unit }: JobLineInput): string | null {
  if (status === 'queued') {
    if (!ahead) return `Queued: next for ${organizationName}`;
    return `Queued: ${ahead} ${ahead === 1 ? 'job' : 'jobs'} ahead for ${organizationName}`;
  }
  if (status === 'running') return total > 0 ? `Running: ${done} of ${total} ${unit}` : 'Running';
  return null;
}

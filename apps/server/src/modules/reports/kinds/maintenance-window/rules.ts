import type { SuppressionWindow } from '@ce/platform-client';
import { listOf } from '../../../../core/json.js';

export type WindowState = 'now' | 'upcoming' | 'expired';

export interface WindowRow {
  accountGroupName: string;
  name: string;
  schedule: string;
  repeat: string;
  duration: string;
  tests: string[];
  state: WindowState;
  enabled: boolean;
}

const DAY_NAMES: Record<string, string> = {
  sun: 'Sun',
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
};

export function formatDuration(seconds: number | undefined): string {
  if (!seconds) return '—';
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  return [hours ? `${hours} h` : '', minutes ? `${minutes} min` : ''].filter(Boolean).join(' ') || `${seconds} s`;
}

export function describeRepeat(window: SuppressionWindow): string {
  const repeat = window.repeat ?? {};
  const type = typeof repeat.type === 'string' ? repeat.type : '';
  if (!type) return 'Once';
  const interval = repeat.intervalLength;
  const every = typeof interval === 'number' && interval > 1 ? `every ${interval} ${type}s` : `every ${type}`;
  const daysOfWeek = listOf(repeat.daysOfWeek).map(String);
  const days = daysOfWeek.length ? ` on ${daysOfWeek.map((day) => DAY_NAMES[day] ?? day).join(', ')}` : '';
  const end = window.endRepeat ?? {};
  const until =
    end.type === 'count' ? `, ${String(end.count)} times` : end.type === 'date' ? `, until ${String(end.date)}` : '';
  return `${every.charAt(0).toUpperCase()}${every.slice(1)}${days}${until}`;
}

/** Now, upcoming or expired: from the platform's status, or from the dates when it gives none. */
export function windowState(window: SuppressionWindow, now: Date): WindowState {
  if (window.status === 'active') return 'now';
  if (window.status === 'ended') return 'expired';
  const start = Date.parse(window.startDate ?? '');
  const end = start + (window.duration ?? 0) * 1000;
  if (!window.repeat && Number.isFinite(end) && end < now.getTime()) return 'expired';
  if (Number.isFinite(start) && start <= now.getTime() && end >= now.getTime()) return 'now';
  return 'upcoming';
}

import { describe, expect, it } from 'vitest';
import type { TimelineEntry } from '@ce/contract';
import { namesTool } from './timeline-table';

const entry = (tool: TimelineEntry['tool'], what: string) => ({ tool, what });

describe("the customer page's What column", () => {
  it('says what was done once when the words already name the tool', () => {
    expect(namesTool(entry('alerts-migration', 'Alerts migration'))).toBe(true);
    expect(namesTool(entry('alerts-migration', 'Undo of an alerts migration'))).toBe(true);
    expect(namesTool(entry('backups', 'Backup'))).toBe(true);
    expect(namesTool(entry('backups', 'Backup (uploaded archive)'))).toBe(true);
    expect(namesTool(entry('restores', 'Undo of a restore'))).toBe(true);
    expect(namesTool(entry('reports', 'AHC v7 report'))).toBe(true);
    expect(namesTool(entry('dashboards', 'Dashboard "WAN health" pushed'))).toBe(true);
  });

  it('names the tool under words that do not', () => {
    expect(namesTool(entry('bulk', 'Create tests'))).toBe(false);
    expect(namesTool(entry('bulk', 'Undo'))).toBe(false);
  });
});

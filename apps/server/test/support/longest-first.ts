import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The integration files that take longest, longest first (wall time in a full run on the 2-core machine, with
 * four files at a time: 85 s down to 30 s). A fresh clone has no timings of its own, and vitest would then run
 * its files in the order found, leaving a long file for last with one worker busy. Any file not listed runs
 * after these, in vitest's order. Re-measure when a file grows: `vitest run --reporter=json` gives each file's time.
 */
const LONGEST_FIRST = [
  'restore-crash',
  'bulk',
  'alerts-migration-crash',
  'health-check',
  'bulk-crash',
  'report-crash',
  'hardening',
  'scale-out',
  'data-dir',
  'shutdown',
  'access',
  'platform-faults',
  'pcap',
  'client',
  'compat-services',
  'tracker-hostile',
  'backups-hostile',
  'compat-reports',
  'explorer',
  'identity',
];

const rank = (spec: TestSpecification): number => {
  const index = LONGEST_FIRST.indexOf(path.basename(spec.moduleId).replace(/\.int\.test\.ts$/, ''));
  return index < 0 ? LONGEST_FIRST.length : index;
};

/** Vitest's order, with the files known to take longest moved to the front (across projects). */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

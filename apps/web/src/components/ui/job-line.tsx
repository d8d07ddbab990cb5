import { jobLine, type JobLineInput } from '@ce/contract';

/**
 * Where a job under way stands, in words: "Queued: 3 jobs ahead for Acme Corporation" while it waits for its
 * organization's budget, "Running: 120 of 380 calls" once it runs; nothing once it ended.
 */
export function JobLine(props: JobLineInput) {
  const line = jobLine(props);
  if (!line) return null;
  return (
    <p className="text-sm text-slate-600" data-testid="job-line">
      {line}
    </p>
  );
}

/**
 * A watch run as the tools it starts see it (decision 0031): the health check and the backups a run makes are
 * the owner's, for the watch's organization and account groups, and name the run.
 */
export interface WatchRunScope {
  id: string;
  userId: string;
  organizationId: string;
  organizationName: string;
  accountGroups: { aid: string; accountGroupName: string }[];
}

/**
 * The budget lane of a job's platform calls: a watch run's parts are scheduled work, which spends at most its share
 * of the organization's window (PLATFORM_SCHEDULED_SHARE); any other job is background work.
 */
export const laneOfJob = (watchRunId: string | null): 'background' | 'scheduled' =>
  watchRunId ? 'scheduled' : 'background';

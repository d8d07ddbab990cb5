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

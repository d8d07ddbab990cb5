import { PATHS, type AppPath } from '@ce/contract';

export interface ToolPageInfo {
  title: string;
  description: string;
  badge?: string;
}

/** Title and one sentence for each page; a page shows only this until its tool is built. */
export const TOOL_PAGES: Partial<Record<AppPath, ToolPageInfo>> = {
  [PATHS.backupRestore]: {
    title: 'Backup & Restore',
    description: 'Saves the configuration of an account group so it can be restored later.',
  },
};

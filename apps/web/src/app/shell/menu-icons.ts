import {
  Activity,
  Archive,
  BellRing,
  Boxes,
  CalendarClock,
  ChartColumn,
  ClipboardCheck,
  Clock,
  FileSpreadsheet,
  FileText,
  FlaskConical,
  HeartPulse,
  LayoutDashboard,
  LayoutGrid,
  LifeBuoy,
  ListChecks,
  Network,
  Settings,
  Stethoscope,
  Terminal,
  Wrench,
  type LucideIcon,
} from 'lucide-react';
import { PATHS, type MenuGroup } from '@ce/contract';

/** The icon of each menu link (by path) and group: a presentation choice, so it lives in the web app. */
export const LINK_ICONS: Record<string, LucideIcon> = {
  [PATHS.dashboard]: LayoutDashboard,
  [PATHS.reports]: FileText,
  [PATHS.accountHealth]: HeartPulse,
  [PATHS.configReport]: FileSpreadsheet,
  [PATHS.alertsReport]: BellRing,
  [PATHS.psClosureDocuments]: ClipboardCheck,
  [PATHS.tamWeeklyReport]: Activity,
  [PATHS.tamMaintenanceWindow]: CalendarClock,
  [PATHS.bulkOperations]: Boxes,
  [PATHS.bulkTests]: FlaskConical,
  [PATHS.dashboards]: LayoutGrid,
  [PATHS.timeTracking]: Clock,
  [PATHS.apiTools]: Terminal,
  [PATHS.alertsMigration]: ListChecks,
  [PATHS.backupRestore]: Archive,
  [PATHS.support]: Network,
  [PATHS.diagnosticTool]: Stethoscope,
  [PATHS.settings]: Settings,
};

export const GROUP_ICONS: Record<MenuGroup['id'], LucideIcon> = {
  reporting: ChartColumn,
  tools: Wrench,
  support: LifeBuoy,
};

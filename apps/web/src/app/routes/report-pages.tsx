import { useState } from 'react';
import { localeAllowsAhcIe } from '@ce/contract';
import { DashboardManager } from '../../features/dashboards/components/dashboard-manager';
import { MaintenanceWindow } from '../../features/reports/components/maintenance-window';
import { MyReports } from '../../features/reports/components/my-reports';
import { ReportTool } from '../../features/reports/components/report-tool';
import { ReportWizard } from '../../features/reports/components/report-wizard';
import { userCan } from '../../lib/permissions';
import { useSession } from '../../lib/session';

export function AccountHealthPage() {
  const { data: user } = useSession();
  return (
    <ReportTool
      title="Account Health Check"
      description="Checks a customer organization against the adoption thresholds (inactive users, alert activity, unused tests, sparse dashboards) and delivers the findings."
      buttons={[
        { mission: 'ahc-v6', label: 'AHC v6', badge: 'Deprecating' },
        { mission: 'ahc-v7', label: 'AHC v7', badge: 'Beta' },
        ...(localeAllowsAhcIe(user?.locale) ? [{ mission: 'ahc-ie' as const, label: 'AHC-IE', badge: 'Alpha' }] : []),
      ]}
    />
  );
}

export function ConfigReportPage() {
  return (
    <ReportTool
      title="Configuration Reports"
      description="Documents how account groups are configured: endpoint agents, cloud and enterprise agent tests, and a 12-tab spreadsheet."
      buttons={[
        { mission: 'epa-config', label: 'EPA Config' },
        { mission: 'tests-config-v7', label: 'CA & EA Tests Config v7' },
        { mission: 'config-spreadsheet', label: 'Configuration Spreadsheet (12 tabs)' },
      ]}
    />
  );
}

export function AlertsReportPage() {
  return (
    <ReportTool
      title="Alerts Configuration Report"
      badge="Beta"
      description="Lists every alert rule of the chosen account groups with its conditions, tests and notifications, as a spreadsheet, and points out rules on no test, rules that notify nobody and rules sharing an expression."
      buttons={[{ mission: 'alerts-config', label: 'Alerts Report', wizardTitle: 'Alerts Configuration Report' }]}
    />
  );
}

export function PsClosurePage() {
  return (
    <ReportTool
      title="PS Closure Documents"
      description="Produces the closure documents of a professional-services engagement, for units and for endpoints."
      buttons={[
        { mission: 'closure-units', label: 'AS Built Closure Document (units)' },
        { mission: 'closure-endpoints', label: 'Endpoints Closure Document' },
      ]}
    />
  );
}

export function TamWeeklyPage() {
  return (
    <ReportTool
      title="TAM Activity Report"
      badge="Beta"
      description="Summarises what happened in a customer's organization over the last 7, 14 or 21 days."
      buttons={[{ mission: 'tam-activity', label: 'TAM Activity Report' }]}
    />
  );
}

export function MaintenanceWindowPage() {
  return <MaintenanceWindow />;
}

export function MyReportsPage() {
  const { data: user } = useSession();
  return <MyReports canSeeEveryone={userCan(user, 'seeAllRuns')} />;
}

/** The dashboard manager, and the Dashboard Report through the shared report wizard. */
export function DashboardsPage() {
  const { data: user } = useSession();
  const [report, setReport] = useState(false);
  return (
    <>
      <DashboardManager onDashboardReport={() => setReport(true)} canReview={userCan(user, 'reviewDashboards')} />
      <ReportWizard
        mission={report ? 'dashboard-report' : null}
        title="Dashboard Report"
        onClose={() => setReport(false)}
      />
    </>
  );
}

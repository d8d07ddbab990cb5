import { DashboardHome } from '../../features/dashboard/components/dashboard-home';

export function DashboardPage() {
  return <DashboardHome />;
}

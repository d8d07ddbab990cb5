import { ApiExplorer } from '../../features/explorer/components/api-explorer';
import { userCan } from '../../lib/permissions';
import { useSession } from '../../lib/session';

export function ApiToolsPage() {
  const { data: user } = useSession();
  return <ApiExplorer canWrite={userCan(user, 'apiWrites')} />;
}

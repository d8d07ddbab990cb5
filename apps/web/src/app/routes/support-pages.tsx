import { CaptureTool } from '../../features/support/components/capture-tool';
import { useSession } from '../../lib/session';

export function PcapSupportPage() {
  const { data: user } = useSession();
  return <CaptureTool userEmail={user?.email ?? ''} />;
}

import { CaptureTool } from '../../features/support/components/capture-tool';
import { DiagnosticTool } from '../../features/support/components/diagnostic-tool';
import { useSession } from '../../lib/session';

export function PcapSupportPage() {
  const { data: user } = useSession();
  return <CaptureTool userEmail={user?.email ?? ''} />;
}

export function DiagnosticToolPage() {
  const { data: user } = useSession();
  return <DiagnosticTool userEmail={user?.email ?? ''} />;
}

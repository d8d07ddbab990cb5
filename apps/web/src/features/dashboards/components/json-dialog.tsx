import { DASHBOARD_MESSAGES, type CommunityDashboard } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast-store';
import { useDashboardTemplate } from '../api/dashboard-template';

export interface JsonDialogProps {
  dashboard: CommunityDashboard | null;
  onClose: () => void;
}

/** The stored definition as JSON, with Copy JSON and Close. */
export function JsonDialog({ dashboard, onClose }: JsonDialogProps) {
  const template = useDashboardTemplate(dashboard?.id ?? '', dashboard !== null);
  const definition = template.data?.[0];
  const text = definition ? JSON.stringify(definition, null, 2) : '';
  const copy = async () => {
    if (!text) {
      toast.error(DASHBOARD_MESSAGES.nothingToCopy);
      return;
    }
    try {
      await navigator.clipboard.writeText(text);
      toast.success(DASHBOARD_MESSAGES.copied);
    } catch {
      toast.error(DASHBOARD_MESSAGES.copyFailed);
    }
  };
  return (
    <Dialog
      title={dashboard ? `${dashboard.title}: JSON` : 'JSON'}
      isOpen={dashboard !== null}
      onClose={onClose}
      width="max-w-4xl"
      footer={
        <>
          <Button onClick={() => void copy()} disabled={template.isPending}>
            Copy JSON
          </Button>
          <Button variant="primary" onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      {template.isPending ? (
        <Spinner label="Loading the dashboard definition" />
      ) : (
        <pre
          aria-label="Dashboard JSON"
          className="max-h-[60vh] overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100"
        >
          {text || DASHBOARD_MESSAGES.nothingToCopy}
        </pre>
      )}
    </Dialog>
  );
}

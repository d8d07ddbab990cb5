import { TimeTracker } from '../../features/tracker/components/time-tracker';

export function TimeTrackingPage() {
  return <TimeTracker />;
}

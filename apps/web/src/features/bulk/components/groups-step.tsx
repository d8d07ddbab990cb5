import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import type { PlatformGroups } from '../hooks/use-platform-groups';
import { GroupSelect } from './group-select';

/** Step 2 of the bulk test creator: the account groups to create the tests in, then the agents are read. */
export function GroupsStep({
  platform,
  quickInfo,
  nextLabel,
  loadingAgents,
  onBack,
  onNext,
}: {
  platform: PlatformGroups;
  quickInfo: ReactNode;
  nextLabel: string;
  loadingAgents: boolean;
  onBack: () => void;
  onNext: () => void;
}) {
  return (
    <section className="space-y-4" aria-label="Account Groups">
      <h2 className="text-xl font-semibold">Account Groups</h2>
      <GroupSelect groups={platform.groups ?? []} selected={platform.selected} onChange={platform.setSelected} />
      {quickInfo}
      <div className="flex justify-between">
        <Button onClick={onBack}>Back</Button>
        <Button
          variant="primary"
          disabled={platform.chosen.length === 0}
          busy={loadingAgents}
          busyLabel="Loading agents"
          onClick={onNext}
        >
          {nextLabel}
        </Button>
      </div>
    </section>
  );
}

import { TokenLoadRow } from '../../../components/customer-fields';
import type { PlatformGroups } from '../hooks/use-platform-groups';
import { GroupSelect } from './group-select';

/** The first two steps of the labels and users tools on one page: the token, then the account groups. */
export function PlatformGroupsSection({ platform }: { platform: PlatformGroups }) {
  return (
    <section className="space-y-3" aria-label="Account groups">
      <TokenLoadRow loader={platform} list="bulk-tests" label="OAuth Token" />
      {platform.groups && (
        <GroupSelect groups={platform.groups} selected={platform.selected} onChange={platform.setSelected} />
      )}
    </section>
  );
}

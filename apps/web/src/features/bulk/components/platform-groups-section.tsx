import { Button } from '../../../components/ui/button';
import type { PlatformGroups } from '../hooks/use-platform-groups';
import { GroupSelect } from './group-select';
import { TokenField } from '../../../components/ui/token-field';

/** The first two steps of the labels and users tools on one page: the token, then the account groups. */
export function PlatformGroupsSection({ platform }: { platform: PlatformGroups }) {
  return (
    <section className="space-y-3" aria-label="Account groups">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-72 flex-1">
          <TokenField
            label="OAuth Token"
            placeholder="Paste the Org Admin's API token"
            recent={{ list: 'bulk-tests', pick: platform.setToken }}
            value={platform.rawToken}
            onChange={(event) => platform.setToken(event.target.value)}
          />
        </div>
        <Button
          variant="primary"
          className="mb-[2px]"
          busy={platform.loading}
          busyLabel="Checking the token"
          onClick={() => void platform.load()}
        >
          Load Account Groups
        </Button>
      </div>
      {platform.groups && (
        <GroupSelect groups={platform.groups} selected={platform.selected} onChange={platform.setSelected} />
      )}
    </section>
  );
}

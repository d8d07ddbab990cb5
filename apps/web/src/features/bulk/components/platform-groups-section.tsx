import type { PlatformGroups } from '../hooks/use-platform-groups';
import { GroupSelect } from './group-select';
import { TokenField } from './token-field';

/** The first two steps of the labels and users tools on one page: the token, then the account groups. */
export function PlatformGroupsSection({ platform }: { platform: PlatformGroups }) {
  return (
    <section className="space-y-3" aria-label="Account groups">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-72 flex-1">
          <TokenField list="bulk-tests" value={platform.rawToken} onChange={platform.setToken} />
        </div>
        <button
          type="button"
          disabled={platform.loading}
          onClick={() => void platform.load()}
          className="mb-[2px] rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {platform.loading ? 'Checking…' : 'Load Account Groups'}
        </button>
      </div>
      {platform.groups && (
        <GroupSelect groups={platform.groups} selected={platform.selected} onChange={platform.setSelected} />
      )}
    </section>
  );
}

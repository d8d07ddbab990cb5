import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import type { PlatformGroups } from '../hooks/use-platform-groups';
import type { TokenList } from '../../../lib/recent-tokens';
import { TokenField } from '../../../components/ui/token-field';

export interface TokenStepProps {
  platform: PlatformGroups;
  list: TokenList;
  nextLabel: string;
  onNext: () => void;
  children?: ReactNode;
}

/** Step 1 of the bulk wizards: the customer's token, with its recent chips, and Next. */
export function TokenStep({ platform, list, nextLabel, onNext, children }: TokenStepProps) {
  return (
    <section className="space-y-4" aria-label="Authentication">
      <h2 className="text-xl font-semibold">Authentication</h2>
      {children}
      <TokenField
        label="OAuth Token"
        placeholder="Paste the Org Admin's API token"
        recent={{ list: list, pick: platform.setToken }}
        value={platform.rawToken}
        onChange={(event) => platform.setToken(event.target.value)}
      />
      <div className="flex justify-end">
        <Button variant="primary" busy={platform.loading} busyLabel="Checking the token" onClick={onNext}>
          {nextLabel}
        </Button>
      </div>
    </section>
  );
}

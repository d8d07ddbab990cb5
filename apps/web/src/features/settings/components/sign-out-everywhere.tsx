import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PATHS, type ApiToken } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useLogout } from '../../../lib/session';
import { useMyApiTokens } from '../api/api-tokens';
import { dateOnly, dateTime } from '../../../lib/dates';

const tokens = (count: number) => (count === 1 ? 'this token' : `these ${count} tokens`);

/** A live token as the dialog lists it: its name, its hint, what it was last used for, when it ends. */
function TokenLine({ token }: { token: ApiToken }) {
  return (
    <li data-testid="live-api-token">
      <span className="font-medium">{token.name}</span>{' '}
      <span className="text-slate-500">
        ({token.hint}) · last used {token.lastUsedAt ? dateTime(token.lastUsedAt) : 'never'} · expires{' '}
        {dateOnly(token.expiresAt)}
      </span>
    </li>
  );
}

/**
 * "Sign out everywhere": every session of the user ends, this one too. Personal API tokens are no session and keep
 * working after it: the dialog lists those still live, with the choice to revoke them too.
 */
export function SignOutEverywhere() {
  const [open, setOpen] = useState(false);
  const [revoke, setRevoke] = useState(false);
  const mine = useMyApiTokens();
  const logout = useLogout();
  const navigate = useNavigate();
  const live = (mine.data ?? []).filter((token) => token.status === 'active');
  const close = () => {
    setOpen(false);
    setRevoke(false);
  };
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)}>
        Sign out everywhere
      </Button>
      <Dialog
        title="Sign out everywhere?"
        isOpen={open}
        onClose={close}
        width="max-w-lg"
        footer={
          <>
            <Button data-autofocus onClick={close}>
              Cancel
            </Button>
            <Button
              variant="danger"
              busy={logout.isPending}
              busyLabel="Signing out"
              onClick={() =>
                // Signed out, the page goes to sign-in as the navbar's Logout does.
                logout.mutate(
                  { revokeApiTokens: revoke && live.length > 0 },
                  { onSettled: () => void navigate(PATHS.login, { replace: true }) },
                )
              }
            >
              {revoke && live.length > 0 ? 'Sign out and revoke' : 'Sign out everywhere'}
            </Button>
          </>
        }
      >
        <div className="space-y-3 text-sm">
          <p>Every session of yours ends, on every device, this one too.</p>
          {mine.isPending && <p className="text-slate-500">Reading your personal API tokens…</p>}
          {mine.isError && (
            <p className="text-red-700">
              Your personal API tokens could not be read: they keep working after you sign out. Revoke them under API
              tokens.
            </p>
          )}
          {mine.isSuccess && live.length === 0 && <p>You have no personal API token that works: nothing else stays.</p>}
          {live.length > 0 && (
            <>
              <p>
                {live.length === 1
                  ? 'Your personal API token is not a session: it keeps'
                  : 'Your personal API tokens are not sessions: they keep'}{' '}
                working after you sign out, unless you revoke {live.length === 1 ? 'it' : 'them'} too.
              </p>
              <ul className="list-disc space-y-1 pl-5" aria-label="Your personal API tokens">
                {live.map((token) => (
                  <TokenLine key={token.id} token={token} />
                ))}
              </ul>
              <label className="flex items-center gap-2">
                <input type="checkbox" checked={revoke} onChange={(event) => setRevoke(event.target.checked)} />
                Revoke {tokens(live.length)} too: scripts using {live.length === 1 ? 'it' : 'them'} stop at once
              </label>
            </>
          )}
        </div>
      </Dialog>
    </>
  );
}

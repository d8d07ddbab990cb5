import { useMemo, useState, type FormEvent } from 'react';
import {
  CAPABILITY_DESCRIPTIONS,
  CAPABILITY_LABELS,
  type ApiToken,
  type Capability,
  type CreatedApiToken,
} from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextInput } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { ApiRequestError } from '../../../lib/api-client';
import {
  useAllApiTokens,
  useApiTokenSettings,
  useCreateApiToken,
  useMyApiTokens,
  useRevokeApiToken,
} from '../api/api-tokens';
import { dateTime } from '../../../lib/dates';

const section = 'rounded-lg border border-slate-200 bg-white p-5';
const errorText = (error: unknown, fallback: string) => (error instanceof ApiRequestError ? error.message : fallback);
const when = (iso: string | null) => (iso ? dateTime(iso) : 'never');
const STATUS_TONE = { active: 'success', expired: 'neutral', revoked: 'neutral' } as const;

/** A token's name, what it may do, its dates and state, and Revoke while it lives. */
function useTokenColumns(withOwner: boolean): ColumnDef<ApiToken, unknown>[] {
  const revoke = useRevokeApiToken({ errorMessage: (error) => errorText(error, 'Could not revoke the token') });
  return useMemo<ColumnDef<ApiToken, unknown>[]>(
    () => [
      {
        id: 'name',
        header: 'Name',
        accessorFn: (token) => token.name,
        cell: ({ row: { original: token } }) => (
          <span>
            <span className="font-medium">{token.name}</span>{' '}
            <code className="text-xs text-slate-500">{token.hint}</code>
          </span>
        ),
      },
      ...(withOwner ? [{ id: 'owner', header: 'Owner', accessorFn: (token: ApiToken) => token.owner.email }] : []),
      {
        id: 'capabilities',
        header: 'May',
        accessorFn: (token) => token.capabilities.map((capability) => CAPABILITY_LABELS[capability]).join('; '),
      },
      {
        id: 'expires',
        header: 'Expires',
        accessorFn: (token) => token.expiresAt,
        cell: ({ getValue }) => when(String(getValue())),
      },
      {
        id: 'used',
        header: 'Last used',
        accessorFn: (token) => token.lastUsedAt ?? '',
        cell: ({ row: { original } }) => when(original.lastUsedAt),
      },
      {
        id: 'status',
        header: 'Status',
        accessorFn: (token) => token.status,
        cell: ({ row: { original: token } }) => (
          <span title={token.revokedReason ?? undefined}>
            <Badge tone={STATUS_TONE[token.status]}>{token.status}</Badge>
            {token.revokedReason && <span className="ml-1 text-xs text-slate-500">{token.revokedReason}</span>}
          </span>
        ),
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        enableSorting: false,
        enableGlobalFilter: false,
        cell: ({ row: { original: token } }) =>
          token.status === 'active' ? (
            <RevokeButton
              token={token}
              busy={revoke.isPending && revoke.variables === token.id}
              onConfirm={(done) =>
                revoke.mutate(token.id, {
                  onSuccess: () => toast.success(`Token ${token.name} revoked`),
                  onSettled: done,
                })
              }
            />
          ) : null,
      },
    ],
    [withOwner, revoke],
  );
}

/** Revoke, after a confirmation that says what it does; Cancel is where the confirmation opens. */
function RevokeButton({
  token,
  busy,
  onConfirm,
}: {
  token: ApiToken;
  busy: boolean;
  onConfirm: (done: () => void) => void;
}) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const title = `Revoke the token ${token.name}?`;
  return (
    <>
      <Button size="sm" aria-label={`Revoke ${token.name}`} onClick={() => setOpen(true)}>
        Revoke
      </Button>
      <ConfirmDialog
        confirmation={
          open
            ? {
                title,
                body: `Every script that sends ${token.name} (${token.hint}) is refused from now on. A revoked token cannot be used again: a script needs a new one.`,
                confirm: 'Revoke token',
                busy: 'Revoking',
                run: async () => onConfirm(close),
              }
            : null
        }
        busy={busy}
        onCancel={close}
        onConfirm={(chosen) => void chosen.run()}
      />
    </>
  );
}

/** The form: a name, a life in days (at most the server's limit), the capabilities it carries (a subset of the role's). */
function CreateTokenForm({ onCreated }: { onCreated: (created: CreatedApiToken) => void }) {
  const settings = useApiTokenSettings();
  const create = useCreateApiToken({ errorMessage: (error) => errorText(error, 'Could not make the token') });
  const [name, setName] = useState('');
  const [days, setDays] = useState('30');
  const [chosen, setChosen] = useState<ReadonlySet<Capability>>(new Set());
  const [problem, setProblem] = useState<string | null>(null);
  const maxDays = settings.data?.maxDays ?? 90;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expiresInDays = Number(days);
    if (!name.trim()) return setProblem('Give the token a name.');
    if (!Number.isInteger(expiresInDays) || expiresInDays < 1 || expiresInDays > maxDays)
      return setProblem(`Choose a life from 1 to ${maxDays} days.`);
    if (chosen.size === 0) return setProblem('Choose at least one capability.');
    setProblem(null);
    create.mutate(
      { name: name.trim(), expiresInDays, capabilities: [...chosen] },
      {
        onSuccess: (created) => {
          onCreated(created);
          setName('');
          setChosen(new Set());
        },
      },
    );
  };
  const toggle = (capability: Capability) =>
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(capability)) next.add(capability);
      return next;
    });
  return (
    <form onSubmit={submit} noValidate aria-label="Make a token" className="mt-3 space-y-3">
      <div className="flex flex-wrap gap-3">
        <TextInput
          label="Token name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          autoComplete="off"
        />
        <TextInput
          label={`Expires in (days, at most ${maxDays})`}
          type="number"
          min={1}
          max={maxDays}
          value={days}
          onChange={(event) => setDays(event.target.value)}
        />
      </div>
      <fieldset>
        <legend className="text-sm font-medium">It may</legend>
        <div className="mt-1 grid gap-2 sm:grid-cols-2">
          {(settings.data?.grantable ?? []).map((capability) => (
            <div key={capability} className="text-sm">
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={chosen.has(capability)}
                  onChange={() => toggle(capability)}
                  aria-describedby={`api-token-may-${capability}`}
                />
                {CAPABILITY_LABELS[capability]}
              </label>
              <p id={`api-token-may-${capability}`} className="ml-6 text-xs text-slate-600">
                {CAPABILITY_DESCRIPTIONS[capability]}
              </p>
            </div>
          ))}
        </div>
      </fieldset>
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      <Button type="submit" variant="primary" busy={create.isPending} busyLabel="Making">
        Make token
      </Button>
    </form>
  );
}

/** Settings: personal API tokens for scripts, made here, shown once, listed with their last use, revocable. */
export function ApiTokensSection() {
  const tokens = useMyApiTokens();
  const columns = useTokenColumns(false);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  return (
    <section className={section} aria-labelledby="api-tokens-heading">
      <h2 id="api-tokens-heading" className="text-lg font-medium">
        Personal API tokens
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        A script sends one as <code>Authorization: Bearer …</code> and acts as you, within what you let it do. Managing
        users, sessions, passwords and tokens is for you, signed in: no token can.
      </p>
      <CreateTokenForm onCreated={setCreated} />
      {created && (
        <div className="mt-3">
          <Banner tone="warning">
            Token {created.token.name} (copy it now: it is not shown again):{' '}
            <code data-testid="api-token-secret" className="break-all">
              {created.secret}
            </code>{' '}
            <Button
              size="sm"
              onClick={() =>
                navigator.clipboard
                  .writeText(created.secret)
                  .then(() => toast.success('Token copied'))
                  .catch(() => toast.error('Could not copy the token: select it and copy it'))
              }
            >
              Copy
            </Button>
          </Banner>
        </div>
      )}
      <div className="mt-4">
        <DataTable
          label="Your API tokens"
          data={tokens.data ?? []}
          columns={columns}
          getRowId={(token) => token.id}
          initialSorting={[{ id: 'expires', desc: true }]}
          filterLabel="Search your tokens"
          empty={tokens.isPending ? 'Loading…' : tokens.isError ? 'Your tokens could not be loaded.' : 'No token yet.'}
          rowProps={() => ({ 'data-testid': 'api-token-row' })}
        />
      </div>
    </section>
  );
}

/** Super User: every user's tokens, any of them revocable. */
export function AllApiTokensSection() {
  const tokens = useAllApiTokens();
  const columns = useTokenColumns(true);
  return (
    <section className={section} aria-labelledby="all-api-tokens-heading">
      <h2 id="all-api-tokens-heading" className="text-lg font-medium">
        Everyone&apos;s API tokens
      </h2>
      <div className="mt-3">
        <DataTable
          label="Everyone's API tokens"
          data={tokens.data ?? []}
          columns={columns}
          getRowId={(token) => token.id}
          initialSorting={[{ id: 'expires', desc: true }]}
          filterLabel="Search tokens"
          empty={tokens.isPending ? 'Loading…' : tokens.isError ? 'The tokens could not be loaded.' : 'No token yet.'}
          rowProps={() => ({ 'data-testid': 'all-api-token-row' })}
        />
      </div>
    </section>
  );
}

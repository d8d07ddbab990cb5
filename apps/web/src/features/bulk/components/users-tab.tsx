import { useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { BULK_MESSAGES } from '@ce/contract';
import { parseInvitees } from '../invitees';
import { toast } from '../../../components/ui/toast-store';
import { useLoadRoles } from '../api/platform-reads';
import { useStartRun } from '../api/runs';
import { toastPlatformError, usePlatformGroups } from '../hooks/use-platform-groups';
import { useRunParam } from '../hooks/use-run-param';
import { PlatformGroupsSection } from './platform-groups-section';
import { RecentRuns } from './recent-runs';
import { RunPanel } from './run-results';
import { primaryButton } from './styles';

/** A list of addresses is a few kilobytes; a bigger file is not one. */
export const INVITEE_FILE_MAX_BYTES = 1024 * 1024;

/** Reads a chosen file as text, refusing what is too big or not text at all (judged by content). */
export async function readInviteeFile(file: Blob): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  if (file.size > INVITEE_FILE_MAX_BYTES) return { ok: false, error: 'The file is larger than 1 MB' };
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.includes(0)) return { ok: false, error: 'This file is not a text or CSV file' };
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, error: 'This file is not a text or CSV file' };
  }
}

/** Bulk Users: invite a list of people with one role into the chosen account groups. */
export function UsersTab() {
  const platform = usePlatformGroups('bulk-tests');
  const [runId, openRun] = useRunParam();
  const [roleId, setRoleId] = useState('');
  const [text, setText] = useState('');
  const startRun = useStartRun();
  const fileInput = useRef<HTMLInputElement>(null);
  const { token, groups } = platform;

  // The organization's roles, read again whenever a token's account groups are loaded.
  const { mutate: loadRoles, data: loadedRoles, reset: forgetRoles } = useLoadRoles();
  useEffect(() => {
    if (!groups) return;
    loadRoles(token, { onError: (error) => toastPlatformError(error, 'Failed to load roles') });
    return forgetRoles;
  }, [groups, token, loadRoles, forgetRoles]);
  const roles = groups ? (loadedRoles ?? null) : null;
  const parsed = useMemo(() => parseInvitees(text), [text]);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const read = await readInviteeFile(file);
    if (!read.ok) toast.error(read.error, { title: 'Upload failed' });
    else setText(read.text);
  };

  const invite = () => {
    if (platform.chosen.length === 0 || !platform.organization) {
      toast.error(BULK_MESSAGES.groupsRequired);
      return;
    }
    if (!roleId) {
      toast.error('Choose a role');
      return;
    }
    if (parsed.invitees.length === 0) {
      toast.error('Add at least one email address');
      return;
    }
    startRun.mutate(
      {
        kind: 'users',
        token: platform.token,
        organization: platform.organization,
        accountGroups: platform.chosen,
        roleId,
        invitees: parsed.invitees,
      },
      {
        onSuccess: (run) => openRun(run.id),
        onError: (error) => toastPlatformError(error, 'Failed to invite users'),
      },
    );
  };

  if (runId)
    return (
      <RunPanel
        runId={runId}
        title="Invitation Results"
        newLabel="Invite Other Users"
        onNew={() => {
          setText('');
          openRun(null);
        }}
      />
    );

  const role = roles?.find((candidate) => candidate.roleId === roleId);
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600">
        Invites people into the chosen account groups with one role. People who are already users of the organization
        are skipped.
      </p>
      <PlatformGroupsSection platform={platform} />
      {platform.groups && (
        <section className="space-y-3" aria-label="Invitations">
          <label className="block text-sm">
            <span className="block font-medium text-slate-700">Role</span>
            <select
              value={roleId}
              onChange={(event) => setRoleId(event.target.value)}
              className="mt-1 rounded-md border border-slate-300 px-3 py-2"
            >
              <option value="">{roles ? 'Choose a role' : 'Loading roles…'}</option>
              {(roles ?? []).map((option) => (
                <option key={option.roleId} value={option.roleId}>
                  {option.name}
                </option>
              ))}
            </select>
          </label>
          <label className="block text-sm">
            <span className="block font-medium text-slate-700">
              Email addresses (one per line, or a CSV with an email column)
            </span>
            <textarea
              value={text}
              rows={6}
              onChange={(event) => setText(event.target.value)}
              placeholder={'ana@customer.example\nname,email\nBo Lee,bo@customer.example'}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
            />
          </label>
          <div className="flex items-center gap-3">
            <button
              type="button"
              className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
              onClick={() => fileInput.current?.click()}
            >
              Upload CSV
            </button>
            <input
              ref={fileInput}
              type="file"
              accept=".csv,text/csv,text/plain"
              className="hidden"
              aria-label="Invitations file"
              onChange={(event) => void upload(event)}
            />
          </div>
          {parsed.rejected.length > 0 && (
            <p className="text-sm text-red-700" data-testid="rejected-lines">
              Not read as an email address: {parsed.rejected.slice(0, 5).join('; ')}
              {parsed.rejected.length > 5 && ` and ${parsed.rejected.length - 5} more`}
            </p>
          )}
          <p className="text-sm text-slate-700" data-testid="users-plan">
            {parsed.invitees.length === 0
              ? 'Add the people to invite.'
              : `${parsed.invitees.length} ${parsed.invitees.length === 1 ? 'person' : 'people'} will be invited into ${
                  platform.chosen.length
                } account ${platform.chosen.length === 1 ? 'group' : 'groups'}${role ? ` as ${role.name}` : ''}.`}
          </p>
          <button type="button" className={primaryButton} disabled={startRun.isPending} onClick={invite}>
            {startRun.isPending ? 'Inviting…' : 'Invite Users'}
          </button>
        </section>
      )}
      <RecentRuns view="users" onOpen={openRun} />
    </div>
  );
}

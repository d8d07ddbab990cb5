import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { BULK_MESSAGES } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { FileButton } from '../../../components/ui/file-button';
import { Select, TextArea } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { parseInvitees, usersFormSchema } from '../invitees';
import { useLoadRoles } from '../api/roles';
import { useStartRun } from '../api/start-run';
import { platformErrors, usePlatformGroups } from '../hooks/use-platform-groups';
import { useRunParam } from '../../../lib/use-run-param';
import { PlatformGroupsSection } from './platform-groups-section';
import { RecentRuns } from './recent-runs';
import { BulkRunPanel } from './run-results';

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

interface UsersForm {
  roleId: string;
  text: string;
}

/** Bulk Users: invite a list of people with one role into the chosen account groups. */
export function UsersTab() {
  const platform = usePlatformGroups('bulk-tests');
  const [runId, openRun] = useRunParam();
  const startRun = useStartRun(platformErrors('Failed to invite users'));
  const { token, groups } = platform;
  const form = useForm<UsersForm>({ resolver: zodResolver(usersFormSchema), defaultValues: { roleId: '', text: '' } });
  const roleId = useWatch({ control: form.control, name: 'roleId' });
  const text = useWatch({ control: form.control, name: 'text' });

  // The organization's roles, read again whenever a token's account groups are loaded.
  const {
    mutate: loadRoles,
    data: loadedRoles,
    reset: forgetRoles,
  } = useLoadRoles(platformErrors('Failed to load roles'));
  useEffect(() => {
    if (!groups) return;
    loadRoles(token);
    return forgetRoles;
  }, [groups, token, loadRoles, forgetRoles]);
  const roles = groups ? (loadedRoles ?? null) : null;
  const parsed = useMemo(() => parseInvitees(text), [text]);

  const upload = async (file: File) => {
    const read = await readInviteeFile(file);
    if (!read.ok) toast.error(read.error, { title: 'Upload failed' });
    else form.setValue('text', read.text, { shouldValidate: form.formState.isSubmitted });
  };

  const invite = form.handleSubmit(
    (values) => {
      if (platform.chosen.length === 0 || !platform.organization) {
        toast.error(BULK_MESSAGES.groupsRequired);
        return;
      }
      startRun.mutate(
        {
          kind: 'users',
          token: platform.token,
          organization: platform.organization,
          accountGroups: platform.chosen,
          roleId: values.roleId,
          invitees: parseInvitees(values.text).invitees,
        },
        {
          onSuccess: (run) => openRun(run.id),
        },
      );
    },
    (errors) => toast.error(errors.roleId?.message ?? errors.text?.message ?? 'Please complete the invitations'),
  );

  if (runId)
    return (
      <BulkRunPanel
        runId={runId}
        title="Invitation Results"
        newLabel="Invite Other Users"
        onNew={() => {
          form.setValue('text', '');
          openRun(null);
        }}
      />
    );

  const role = roles?.find((candidate) => candidate.roleId === roleId);
  const { errors } = form.formState;
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600">
        Invites people into the chosen account groups with one role. People who are already users of the organization
        are skipped.
      </p>
      <PlatformGroupsSection platform={platform} />
      {platform.groups && (
        <form onSubmit={(event) => void invite(event)} noValidate>
          <section className="space-y-3" aria-label="Invitations">
            <Select
              label="Role"
              placeholder={roles ? 'Choose a role' : 'Loading roles…'}
              options={(roles ?? []).map((option) => ({ value: option.roleId, label: option.name }))}
              error={errors.roleId?.message}
              fieldClassName="max-w-xs"
              {...form.register('roleId')}
            />
            <TextArea
              label="Email addresses (one per line, or a CSV with an email column)"
              rows={6}
              placeholder={'ana@customer.example\nname,email\nBo Lee,bo@customer.example'}
              className="font-mono text-sm"
              error={errors.text?.message}
              {...form.register('text')}
            />
            <div className="flex items-center gap-3">
              <FileButton
                size="sm"
                inputLabel="Invitations file"
                accept=".csv,text/csv,text/plain"
                onFile={(file) => void upload(file)}
              >
                Upload CSV
              </FileButton>
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
            <Button type="submit" variant="primary" busy={startRun.isPending} busyLabel="Inviting">
              Invite Users
            </Button>
          </section>
        </form>
      )}
      <RecentRuns view="users" onOpen={openRun} />
    </div>
  );
}

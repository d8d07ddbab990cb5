import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { DASHBOARD_LIMITS, DASHBOARD_MESSAGES, PATHS, type GroupDashboard } from '@ce/contract';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Select, TextArea } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { ApiRequestError } from '../../../lib/api-client';
import { soleOrganization, useTokenGroups } from '../../../lib/use-token-groups';
import { useCloneDashboard } from '../api/clone-dashboard';
import { useGroupDashboards } from '../api/group-dashboards';
import {
  cloneFormSchema,
  descriptionCounter,
  EMPTY_CLONE_FORM,
  SCREENSHOT_FIELDS,
  type CloneFormValues,
} from '../clone-form-schema';
import { TokenField } from '../../../components/ui/token-field';
import { FilePicker, UploadProgress } from '../../../components/ui/file-picker';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

const LATER_FIELDS = ['aid', 'dashboardId', 'description', ...SCREENSHOT_FIELDS] as const;
const isUnauthorized = (error: unknown) =>
  error instanceof ApiRequestError && (error.status === 401 || error.status === 403);

/**
 * Clone Dashboard: a customer's token, its organization, an account group, one of its dashboards, a
 * description of at least 50 characters and three screenshots. The dashboard is read on the server and
 * stored in the community gallery.
 */
/** A refused form (400) says why under the spec's title; anything else is the spec's failure. */
const CLONE_ERRORS: ErrorToastMeta = {
  errorMessage: (error) =>
    error instanceof ApiRequestError && error.status === 400
      ? { text: error.message, title: DASHBOARD_MESSAGES.cloneFailed }
      : DASHBOARD_MESSAGES.cloneFailed,
};

/** A failed token check says the tool's words (the reason stays in the banner). */
const TOKEN_CHECK_ERRORS = { errorMessage: () => DASHBOARD_MESSAGES.tokenCheckFailed };
/** Where the gallery opens with a stored dashboard marked. */
const galleryLink = (id: string) => `${PATHS.dashboards}?dashboard=${encodeURIComponent(id)}`;

export function CloneForm() {
  const form = useForm<CloneFormValues>({
    resolver: zodResolver(cloneFormSchema),
    defaultValues: EMPTY_CLONE_FORM,
  });
  const values = useWatch({ control: form.control }) as CloneFormValues;
  const errors = form.formState.errors;
  const [dashboards, setDashboards] = useState<GroupDashboard[]>([]);
  const [unauthorized, setUnauthorized] = useState(false);
  const [progress, setProgress] = useState(0);
  // File inputs cannot be emptied by value: a new key gives fresh ones whenever the form clears them.
  const [filesKey, setFilesKey] = useState(0);
  // The dashboard this form stored last: the page links to it in the gallery, after the toast has gone too.
  const [stored, setStored] = useState<{ id: string; title: string } | null>(null);
  const tokenGroups = useTokenGroups(TOKEN_CHECK_ERRORS);
  const loadDashboards = useGroupDashboards({ errorMessage: () => DASHBOARD_MESSAGES.loadFailed });
  const clone = useCloneDashboard(CLONE_ERRORS);

  const { organizations } = tokenGroups;
  const organizationGroups = tokenGroups
    .inOrganization(values.organizationId)
    .map((group) => ({ value: group.aid, label: group.accountGroupName }));

  /** Clears the fields after `from` (spec section 4): what was chosen below no longer applies. */
  const clearFrom = (fields: readonly (keyof CloneFormValues)[]) => {
    for (const field of fields) form.setValue(field, EMPTY_CLONE_FORM[field] as never);
    form.clearErrors(fields as (keyof CloneFormValues)[]);
    if (fields.includes('dashboardId')) setDashboards([]);
    if (fields.includes('screenshot1')) setFilesKey((key) => key + 1);
  };

  const validate = (pasted?: string) => {
    const token = (pasted ?? form.getValues('token')).trim();
    if (token.length < DASHBOARD_LIMITS.tokenMin) {
      form.setError('token', { message: DASHBOARD_MESSAGES.tokenTooShort });
      return;
    }
    form.clearErrors('token');
    tokenGroups.load(token).then(
      (loaded) => {
        setUnauthorized(false);
        clearFrom(['organizationId', ...LATER_FIELDS]);
        if (soleOrganization(loaded)) form.setValue('organizationId', soleOrganization(loaded));
      },
      () => {
        clearFrom(['organizationId', ...LATER_FIELDS]);
        setUnauthorized(true);
      },
    );
  };

  const chooseGroup = (aid: string) => {
    clearFrom(['dashboardId']);
    if (!aid) return;
    loadDashboards.mutate(
      { token: form.getValues('token').trim(), aid },
      {
        onSuccess: setDashboards,
        onError: (error) => {
          if (isUnauthorized(error)) setUnauthorized(true);
        },
      },
    );
  };

  const reset = () => {
    form.reset(EMPTY_CLONE_FORM);
    tokenGroups.clear();
    setDashboards([]);
    setFilesKey((key) => key + 1);
    setProgress(0);
  };

  const submit = form.handleSubmit(
    (valid) => {
      setProgress(0);
      clone.mutate(
        {
          token: valid.token.trim(),
          organizationId: valid.organizationId,
          aid: valid.aid,
          dashboardId: valid.dashboardId,
          description: valid.description.trim(),
          screenshots: SCREENSHOT_FIELDS.map((field) => valid[field] as File),
          onProgress: setProgress,
        },
        {
          onSuccess: (made) => {
            toast.success(DASHBOARD_MESSAGES.stored, {
              link: { to: galleryLink(made.id), label: 'See it in the gallery' },
            });
            setStored({ id: made.id, title: made.title });
            reset();
          },
          onError: (error) => {
            if (!(error instanceof ApiRequestError)) return;
            if (isUnauthorized(error)) setUnauthorized(true);
            // The server's check of a field (a screenshot that is no image) shows under that field.
            for (const field of error.fields)
              if ((Object.keys(EMPTY_CLONE_FORM) as string[]).includes(field.path))
                form.setError(field.path as keyof CloneFormValues, { message: field.message });
          },
        },
      );
    },
    () => toast.error(DASHBOARD_MESSAGES.formInvalid),
  );

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-label="Clone Dashboard">
      <h2 className="text-xl font-semibold">Clone Dashboard</h2>
      {stored && (
        <p role="status" className="text-sm" data-testid="clone-stored">
          &ldquo;{stored.title}&rdquo; is in the community gallery, waiting for review.{' '}
          <Link to={galleryLink(stored.id)} className="text-brand-800 underline">
            Open it in the gallery
          </Link>
        </p>
      )}
      {unauthorized && <Banner tone="error">{DASHBOARD_MESSAGES.tokenBanner}</Banner>}
      <div className="flex items-end gap-2">
        <TokenField
          fieldClassName="flex-1"
          placeholder="Paste the Org Admin's API token"
          hint="Pasting validates it. The token is used for this clone only and never stored."
          error={errors.token?.message}
          {...form.register('token')}
          onPaste={(event) => {
            const pasted = event.clipboardData.getData('text');
            if (pasted) validate(pasted);
          }}
        />
        <Button onClick={() => validate()} busy={tokenGroups.loading} busyLabel="Validating token" className="mb-6">
          Validate Token
        </Button>
      </div>
      <Select
        label="Organization"
        placeholder="Select an organization"
        options={organizations}
        disabled={organizations.length === 0}
        value={values.organizationId ?? ''}
        error={errors.organizationId?.message}
        {...form.register('organizationId', { onChange: () => clearFrom(LATER_FIELDS) })}
      />
      <Select
        label="Account group"
        placeholder="Select an account group"
        options={organizationGroups}
        disabled={!values.organizationId}
        value={values.aid ?? ''}
        error={errors.aid?.message}
        {...form.register('aid', { onChange: (event) => chooseGroup(String(event.target.value)) })}
      />
      <Select
        label="Dashboard"
        placeholder={loadDashboards.isPending ? 'Loading dashboards…' : 'Select a dashboard'}
        options={dashboards.map((dashboard) => ({ value: dashboard.dashboardId, label: dashboard.title }))}
        disabled={dashboards.length === 0}
        value={values.dashboardId ?? ''}
        error={errors.dashboardId?.message}
        {...form.register('dashboardId')}
      />
      <TextArea
        label="Description"
        rows={4}
        placeholder="What the dashboard shows, for whom, and what it needs (tests, agents, tags)"
        hint={<span aria-live="polite">{descriptionCounter(values.description ?? '')}</span>}
        error={errors.description?.message}
        {...form.register('description')}
      />
      <div key={filesKey} className="grid gap-3 sm:grid-cols-3">
        {SCREENSHOT_FIELDS.map((field, index) => (
          <FilePicker
            key={field}
            label={`Screenshot ${index + 1}`}
            error={errors[field]?.message}
            accept="image/*"
            onFile={(file) => form.setValue(field, file, { shouldValidate: form.formState.isSubmitted })}
          />
        ))}
      </div>
      <p className="text-xs text-slate-500">Three images (PNG, JPEG, GIF or WebP), each at most 5 MB.</p>
      {clone.isPending && <UploadProgress share={progress} />}
      <Button type="submit" variant="primary" busy={clone.isPending} busyLabel="Cloning Dashboard">
        {clone.isPending ? 'Cloning Dashboard...' : 'Clone Dashboard'}
      </Button>
    </form>
  );
}

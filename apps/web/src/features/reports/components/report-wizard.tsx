import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo, useState } from 'react';
import { useController, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  AHC_IE_DAYS_RANGES,
  AHC_TABLES,
  CLOSURE_KINDS,
  closureOptionsSchema,
  missingDataMessage,
  platformTokenSchema,
  REPORT_KINDS,
  REPORT_REQUEST_MESSAGES,
  REPORT_TOASTS,
  TAM_DAYS_RANGES,
  type ReportAccountGroup,
  type ReportKind,
  type ReportRequest,
} from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { CheckList } from '../../../components/ui/check-list';
import { Dialog } from '../../../components/ui/dialog';
import { Select, TextArea, TextInput } from '../../../components/ui/field';
import { Stepper } from '../../../components/ui/stepper';
import { toast } from '../../../components/ui/toast-store';
import { organizationsOf, useLoadAccountGroups } from '../../../lib/api/account-groups';
import { ApiRequestError } from '../../../lib/api-client';
import { useCreateReport } from '../api/create-report';
import { TokenField } from '../../../components/ui/token-field';

export interface ReportWizardProps {
  /** The mission the button asked for; an unknown one is refused with a toast. */
  mission: string | null;
  title: string;
  onClose: () => void;
  onSubmitted?: (report: ReportRequest) => void;
  /** Turns a failed submission into the page's own message (the maintenance report's status texts). */
  failureMessage?: (error: unknown) => string;
}

const isClosure = (kind: ReportKind | null) => (CLOSURE_KINDS as readonly string[]).includes(kind ?? '');
const isKnownMission = (mission: string): mission is ReportKind => Object.hasOwn(REPORT_KINDS, mission);
const INVALID_TOKEN = 'Invalid OAuth token. Please check your token and try again.';

/** The wizard's fields, checked by the contract's own token rule and the spec's messages (section 5). */
const wizardSchema = (needsAccounts: boolean) =>
  z.object({
    token: platformTokenSchema,
    organizationId: z.string().min(1, 'Please select an organization'),
    accountGroups: needsAccounts
      ? z.array(z.string()).min(1, 'Please select at least one account group')
      : z.array(z.string()),
    tamDays: z.number().int(),
    ahcDays: z.number().int(),
    tables: z.array(z.enum(AHC_TABLES)).min(1, 'Choose at least one table'),
    engagementName: closureOptionsSchema.shape.engagementName,
    customerContact: closureOptionsSchema.shape.customerContact,
    notes: closureOptionsSchema.shape.notes,
  });
type WizardValues = z.infer<ReturnType<typeof wizardSchema>>;

const DEFAULTS: WizardValues = {
  token: '',
  organizationId: '',
  accountGroups: [],
  tamDays: 7,
  ahcDays: 31,
  tables: [...AHC_TABLES],
  engagementName: '',
  customerContact: '',
  notes: '',
};
const STEP_FIELDS = {
  1: { token: true },
  2: { organizationId: true, accountGroups: true },
  3: { tables: true },
} as const;

const byName = (group: ReportAccountGroup, needle: string) => group.accountGroupName.toLowerCase().includes(needle);

/**
 * The modal wizard shared by every report tool: OAuth -> Selection -> Config (Config only for AHC-IE).
 * Next only when the step is valid (Enter in a field does the same); closing, by any means, resets
 * everything.
 */
export function ReportWizard({ mission, title, onClose, onSubmitted, failureMessage }: ReportWizardProps) {
  const formId = useId();
  const kind = mission && isKnownMission(mission) ? mission : null;
  const needsAccounts = kind ? REPORT_KINDS[kind].needsAccounts : true;
  const lastStep = kind === 'ahc-ie' ? 3 : 2;
  const schema = useMemo(() => wizardSchema(needsAccounts), [needsAccounts]);
  const form = useForm<WizardValues>({ resolver: zodResolver(schema), defaultValues: DEFAULTS, mode: 'onChange' });
  const values = useWatch({ control: form.control }) as WizardValues;
  const [step, setStep] = useState(1);
  const [groups, setGroups] = useState<ReportAccountGroup[]>([]);
  const [search, setSearch] = useState('');
  /** Why the token check failed, in the server's words, under the token field (the toast is the spec's). */
  const [tokenProblem, setTokenProblem] = useState<string | null>(null);
  const loadGroups = useLoadAccountGroups();
  const createReport = useCreateReport();
  const accountGroups = useController({ control: form.control, name: 'accountGroups' });
  const tables = useController({ control: form.control, name: 'tables' });

  const organizations = useMemo(() => organizationsOf(groups), [groups]);
  const organizationGroups = useMemo(
    () => groups.filter((group) => group.organizationId === values.organizationId),
    [groups, values.organizationId],
  );
  const selected = useMemo(() => new Set(values.accountGroups), [values.accountGroups]);
  const stepValid = schema.pick(STEP_FIELDS[step as 1 | 2 | 3]).safeParse(values).success;

  const close = () => {
    form.reset(DEFAULTS);
    setStep(1);
    setGroups([]);
    setSearch('');
    setTokenProblem(null);
    onClose();
  };

  const isUnknown = mission !== null && !kind;
  useEffect(() => {
    if (!isUnknown) return;
    toast.info(`Unrecognized mission: ${mission}`);
    onClose();
  }, [isUnknown, mission, onClose]);
  if (isUnknown) return null;

  const next = () => {
    if (!stepValid) return;
    if (step > 1) {
      setStep(step + 1);
      return;
    }
    setTokenProblem(null);
    loadGroups.mutate(values.token.trim(), {
      onSuccess: (loaded) => {
        setGroups(loaded);
        const only = new Set(loaded.map((group) => group.organizationId));
        form.setValue('organizationId', only.size === 1 ? (loaded[0]?.organizationId ?? '') : '', {
          shouldValidate: true,
        });
        form.setValue('accountGroups', []);
        setStep(2);
      },
      // Any failed check is the spec's message (section 8); the specific reason stays under the field.
      onError: (error) => {
        toast.error(INVALID_TOKEN);
        setTokenProblem(
          error instanceof ApiRequestError && error.message
            ? error.message
            : 'The token could not be checked. Try again in a moment.',
        );
      },
    });
  };

  const submit = form.handleSubmit(
    (valid) => {
      if (!kind) return;
      const organization = organizations.find((candidate) => candidate.value === valid.organizationId);
      if (!organization) {
        toast.error('Please select an organization');
        return;
      }
      const chosen = new Set(valid.accountGroups);
      createReport.mutate(
        {
          kind,
          token: valid.token.trim(),
          organization: { id: organization.value, name: organization.label },
          accountGroups: organizationGroups
            .filter((group) => chosen.has(group.aid))
            .map((group) => ({ aid: group.aid, accountGroupName: group.accountGroupName })),
          options:
            kind === 'tam-activity'
              ? { daysRange: valid.tamDays, planner: [] }
              : isClosure(kind)
                ? {
                    ...(valid.engagementName ? { engagementName: valid.engagementName } : {}),
                    ...(valid.customerContact ? { customerContact: valid.customerContact } : {}),
                    ...(valid.notes ? { notes: valid.notes } : {}),
                  }
                : kind === 'ahc-ie'
                  ? { daysRange: valid.ahcDays, tables: valid.tables }
                  : {},
        },
        {
          onSuccess: (report) => {
            toast.success(REPORT_TOASTS[kind].success);
            onSubmitted?.(report);
            close();
          },
          onError: (error) => {
            // An incomplete request (400) is "missing data" in the spec's words; other failures name the kind.
            // An empty selection that reached the server is the spec's own toast.
            const incomplete = error instanceof ApiRequestError && error.status === 400;
            const noGroups = error instanceof ApiRequestError && error.code === 'no_account_groups';
            toast.error(
              noGroups
                ? REPORT_REQUEST_MESSAGES.noAccountGroups
                : failureMessage
                  ? failureMessage(error)
                  : incomplete
                    ? missingDataMessage(kind)
                    : REPORT_TOASTS[kind].failure,
              { title: error instanceof ApiRequestError && !failureMessage ? error.message : undefined },
            );
            if (failureMessage) close();
          },
        },
      );
    },
    // The spec's submit-time toasts (section 5), in its order.
    (errors) =>
      toast.error(
        errors.token
          ? 'Please provide a valid OAuth token'
          : errors.organizationId
            ? 'Please select an organization'
            : errors.accountGroups
              ? 'No accounts selected'
              : (errors.tables?.message ?? 'Forms are not properly initialized'),
      ),
  );

  const footer = (
    <>
      {step > 1 && <Button onClick={() => setStep(step - 1)}>Previous</Button>}
      {step < lastStep ? (
        <Button
          type="submit"
          form={formId}
          variant="primary"
          disabled={!stepValid}
          busy={loadGroups.isPending}
          busyLabel="Checking token"
        >
          {loadGroups.isPending ? 'Checking token…' : 'Next'}
        </Button>
      ) : (
        <Button
          type="submit"
          form={formId}
          variant="primary"
          disabled={!stepValid}
          busy={createReport.isPending}
          busyLabel="Submitting"
        >
          {createReport.isPending ? 'Submitting…' : 'Submit'}
        </Button>
      )}
    </>
  );

  return (
    <Dialog title={title} isOpen={mission !== null} onClose={close} footer={footer}>
      <div className="mb-4">
        <Stepper
          label="Steps"
          current={step}
          onGo={setStep}
          steps={['OAuth', 'Selection', ...(lastStep === 3 ? ['Config'] : [])].map((label, index) => ({
            label,
            done: index + 1 < step,
            reachable: index + 1 < step,
          }))}
        />
      </div>
      <form
        id={formId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (step < lastStep) next();
          else void submit(event);
        }}
        className="space-y-3"
      >
        {step === 1 && (
          <TokenField
            placeholder="Bearer token of an Org Admin of the customer organization"
            hint="The token is used for this report only and is erased when the report is done."
            {...form.register('token', { onChange: () => setTokenProblem(null) })}
          />
        )}
        {step === 1 && tokenProblem && (
          <p role="status" aria-label="Token check" className="text-sm text-red-700">
            {tokenProblem}
          </p>
        )}
        {step === 2 && (
          <>
            <Select
              label="Organization"
              placeholder="Select an organization"
              options={organizations}
              {...form.register('organizationId', {
                // A new organization starts a new choice (spec section 4).
                onChange: () => {
                  form.setValue('accountGroups', [], { shouldValidate: true });
                  setSearch('');
                },
              })}
            />
            {values.organizationId && (
              <CheckList
                items={organizationGroups}
                itemKey={(group) => group.aid}
                renderItem={(group) => <span className="truncate">{group.accountGroupName}</span>}
                matches={byName}
                selected={selected}
                onSelectedChange={(next) => accountGroups.field.onChange([...next])}
                label="Account groups"
                searchLabel="Search account groups"
                emptyText="No account group matches."
                search={search}
                onSearchChange={setSearch}
              />
            )}
            {values.organizationId && needsAccounts && selected.size === 0 && (
              <p className="text-sm text-amber-700">Please select at least one account group</p>
            )}
            {isClosure(kind) && (
              <fieldset className="space-y-3">
                <legend className="text-sm font-medium">Details for the document (optional)</legend>
                <TextInput
                  label="Engagement name"
                  {...form.register('engagementName')}
                  error={form.formState.errors.engagementName?.message}
                />
                <TextInput
                  label="Customer contact"
                  {...form.register('customerContact')}
                  error={form.formState.errors.customerContact?.message}
                />
                <TextArea
                  label="Notes"
                  rows={3}
                  {...form.register('notes')}
                  error={form.formState.errors.notes?.message}
                />
              </fieldset>
            )}
            {kind === 'tam-activity' && (
              <Select
                label="Days range"
                options={TAM_DAYS_RANGES.map((days) => ({ value: String(days), label: String(days) }))}
                {...form.register('tamDays', { valueAsNumber: true })}
              />
            )}
          </>
        )}
        {step === 3 && (
          <>
            <Select
              label="Days range"
              options={AHC_IE_DAYS_RANGES.map((days) => ({ value: String(days), label: String(days) }))}
              {...form.register('ahcDays', { valueAsNumber: true })}
            />
            <fieldset className="space-y-1 text-sm">
              <legend className="font-medium">Tables</legend>
              {AHC_TABLES.map((table) => (
                <label key={table} className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    checked={tables.field.value.includes(table)}
                    onChange={() =>
                      tables.field.onChange(
                        tables.field.value.includes(table)
                          ? tables.field.value.filter((item) => item !== table)
                          : [...tables.field.value, table],
                      )
                    }
                  />
                  {table}
                </label>
              ))}
            </fieldset>
          </>
        )}
      </form>
    </Dialog>
  );
}

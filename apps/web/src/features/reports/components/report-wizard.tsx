import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { PATHS, REPORT_KINDS, REPORT_TOASTS, type ReportRequest } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Stepper } from '../../../components/ui/stepper';
import { toast } from '../../../components/ui/toast-store';
import { ApiRequestError } from '../../../lib/api-client';
import { soleOrganization, useTokenGroups } from '../../../lib/use-token-groups';
import { useCreateReport } from '../api/create-report';
import { ConfigStep } from './report-wizard/config-step';
import {
  DEFAULTS,
  INVALID_TOKEN,
  isKnownMission,
  reportRequestOf,
  requestErrors,
  STEP_FIELDS,
  wizardSchema,
  type WizardValues,
} from './report-wizard/form';
import { SelectionStep } from './report-wizard/selection-step';
import { TokenStep } from './report-wizard/token-step';

export interface ReportWizardProps {
  /** The mission the button asked for; an unknown one is refused with a toast. */
  mission: string | null;
  title: string;
  onClose: () => void;
  onSubmitted?: (report: ReportRequest) => void;
  /** Turns a failed submission into the page's own message (the maintenance report's status texts). */
  failureMessage?: (error: unknown) => string;
}

/** Any failed token check is the spec's message (section 8); the specific reason stays under the field. */
const TOKEN_CHECK_ERRORS = { errorMessage: () => INVALID_TOKEN };

/**
 * The modal wizard shared by every report tool: OAuth -> Selection -> Config (Config only for AHC-IE),
 * one component per step. Next only when the step is valid (Enter in a field does the same); closing, by
 * any means, resets everything.
 */
/** Where a requested report is followed: its row in My Reports. */
export const reportLink = (id: string) => ({
  to: `${PATHS.reports}?report=${encodeURIComponent(id)}`,
  label: 'Open in My Reports',
});

export function ReportWizard({ mission, title, onClose, onSubmitted, failureMessage }: ReportWizardProps) {
  const formId = useId();
  const kind = mission && isKnownMission(mission) ? mission : null;
  const needsAccounts = kind ? REPORT_KINDS[kind].needsAccounts : true;
  const lastStep = kind === 'ahc-ie' ? 3 : 2;
  const schema = useMemo(() => wizardSchema(needsAccounts), [needsAccounts]);
  const form = useForm<WizardValues>({ resolver: zodResolver(schema), defaultValues: DEFAULTS, mode: 'onChange' });
  const values = useWatch({ control: form.control }) as WizardValues;
  const [step, setStep] = useState(1);
  const [search, setSearch] = useState('');
  /** Why the token check failed, in the server's words, under the token field (the toast is the spec's). */
  const [tokenProblem, setTokenProblem] = useState<string | null>(null);
  const tokenGroups = useTokenGroups(TOKEN_CHECK_ERRORS);
  const createReport = useCreateReport(kind ? requestErrors(kind, failureMessage) : undefined);

  const { organizations } = tokenGroups;
  const organizationGroups = tokenGroups.inOrganization(values.organizationId);
  const stepValid = schema.pick(STEP_FIELDS[step as 1 | 2 | 3]).safeParse(values).success;

  const close = () => {
    form.reset(DEFAULTS);
    setStep(1);
    tokenGroups.clear();
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
    tokenGroups.load(values.token.trim()).then(
      (loaded) => {
        form.setValue('organizationId', soleOrganization(loaded), { shouldValidate: true });
        form.setValue('accountGroups', []);
        setStep(2);
      },
      (error: unknown) =>
        setTokenProblem(
          error instanceof ApiRequestError && error.message
            ? error.message
            : 'The token could not be checked. Try again in a moment.',
        ),
    );
  };

  const submit = form.handleSubmit(
    (valid) => {
      if (!kind) return;
      const organization = organizations.find((candidate) => candidate.value === valid.organizationId);
      if (!organization) {
        toast.error('Please select an organization');
        return;
      }
      createReport.mutate(reportRequestOf(kind, valid, organization, organizationGroups), {
        onSuccess: (report) => {
          toast.success(REPORT_TOASTS[kind].success, { link: reportLink(report.id) });
          onSubmitted?.(report);
          close();
        },
        // The failure's toast is the query client's (requestErrors); a page with its own words closes.
        onError: () => {
          if (failureMessage) close();
        },
      });
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
          busy={tokenGroups.loading}
          busyLabel="Checking token"
        >
          {tokenGroups.loading ? 'Checking token…' : 'Next'}
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
        {step === 1 && <TokenStep form={form} problem={tokenProblem} onEdit={() => setTokenProblem(null)} />}
        {step === 2 && (
          <SelectionStep
            form={form}
            kind={kind}
            needsAccounts={needsAccounts}
            organizations={organizations}
            groups={organizationGroups}
            search={search}
            onSearchChange={setSearch}
          />
        )}
        {step === 3 && <ConfigStep form={form} />}
      </form>
    </Dialog>
  );
}

import { useEffect, useMemo, useState } from 'react';
import {
  AHC_IE_DAYS_RANGES,
  AHC_TABLES,
  REPORT_KINDS,
  REPORT_TOASTS,
  TAM_DAYS_RANGES,
  type ReportAccountGroup,
  type ReportKind,
  type ReportRequest,
} from '@ce/contract';
import { AccountGroupPicker } from '../../../components/ui/account-group-picker';
import { Modal } from '../../../components/ui/modal';
import { toast } from '../../../components/ui/toast-store';
import { ApiRequestError } from '../../../lib/api-client';
import { fetchAccountGroups, useCreateReport } from '../api/reports-api';

export interface ReportWizardProps {
  /** The mission the button asked for; an unknown one is refused with a toast. */
  mission: string | null;
  title: string;
  onClose: () => void;
  onSubmitted?: (report: ReportRequest) => void;
  /** Turns a failed submission into the page's own message (the maintenance report's status texts). */
  failureMessage?: (error: unknown) => string;
}

const isKnownMission = (mission: string): mission is ReportKind => Object.hasOwn(REPORT_KINDS, mission);
const INVALID_TOKEN = 'Invalid OAuth token. Please check your token and try again.';

const button = 'rounded-md px-4 py-2 text-sm font-medium disabled:opacity-50';

/**
 * The modal wizard shared by every report tool: OAuth -> Selection -> Config (Config only for AHC-IE).
 * Next only when the step is valid; closing, by any means, resets everything.
 */
export function ReportWizard({ mission, title, onClose, onSubmitted, failureMessage }: ReportWizardProps) {
  const [step, setStep] = useState(1);
  const [token, setToken] = useState('');
  const [groups, setGroups] = useState<ReportAccountGroup[]>([]);
  const [organizationId, setOrganizationId] = useState('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [search, setSearch] = useState('');
  const [tamDays, setTamDays] = useState<number>(7);
  const [ahcDays, setAhcDays] = useState<number>(31);
  const [tables, setTables] = useState<Set<string>>(new Set(AHC_TABLES));
  const [isLoadingGroups, setLoadingGroups] = useState(false);
  const createReport = useCreateReport();

  const kind = mission && isKnownMission(mission) ? mission : null;
  const needsAccounts = kind ? REPORT_KINDS[kind].needsAccounts : true;
  const lastStep = kind === 'ahc-ie' ? 3 : 2;

  const organizations = useMemo(() => {
    const byId = new Map<string, string>();
    for (const group of groups) byId.set(group.organizationId, group.organizationName);
    return [...byId.entries()].map(([id, name]) => ({ id, name }));
  }, [groups]);
  const organizationGroups = useMemo(
    () => groups.filter((group) => group.organizationId === organizationId),
    [groups, organizationId],
  );

  const reset = () => {
    setStep(1);
    setToken('');
    setGroups([]);
    setOrganizationId('');
    setSelected(new Set());
    setSearch('');
    setTamDays(7);
    setAhcDays(31);
    setTables(new Set(AHC_TABLES));
  };
  const close = () => {
    reset();
    onClose();
  };

  const isUnknown = mission !== null && !kind;
  useEffect(() => {
    if (!isUnknown) return;
    toast.info(`Unrecognized mission: ${mission}`);
    onClose();
  }, [isUnknown, mission, onClose]);
  if (isUnknown) return null;

  const stepValid =
    step === 1
      ? token.trim() !== ''
      : step === 2
        ? organizationId !== '' && (!needsAccounts || selected.size > 0)
        : tables.size > 0;

  const handleNext = async () => {
    if (!stepValid) return;
    if (step === 1) {
      setLoadingGroups(true);
      try {
        const loaded = await fetchAccountGroups(token.trim());
        setGroups(loaded);
        const only = new Set(loaded.map((group) => group.organizationId));
        setOrganizationId(only.size === 1 ? (loaded[0]?.organizationId ?? '') : '');
        setStep(2);
      } catch (error) {
        toast.error(
          error instanceof ApiRequestError && error.status === 401
            ? INVALID_TOKEN
            : error instanceof Error
              ? error.message
              : INVALID_TOKEN,
        );
      } finally {
        setLoadingGroups(false);
      }
      return;
    }
    setStep(step + 1);
  };

  const handleSubmit = () => {
    if (!kind) return;
    const organization = organizations.find((candidate) => candidate.id === organizationId);
    const problem =
      token.trim() === ''
        ? 'Please provide a valid OAuth token'
        : !organization
          ? 'Please select an organization'
          : needsAccounts && selected.size === 0
            ? 'No accounts selected'
            : null;
    if (problem || !organization) {
      toast.error(problem ?? 'Please select an organization');
      return;
    }
    const accountGroups = organizationGroups
      .filter((group) => selected.has(group.aid))
      .map((group) => ({ aid: group.aid, accountGroupName: group.accountGroupName }));
    const options =
      kind === 'tam-activity'
        ? { daysRange: tamDays }
        : kind === 'ahc-ie'
          ? { daysRange: ahcDays, tables: [...tables] as (typeof AHC_TABLES)[number][] }
          : {};
    createReport.mutate(
      { kind, token: token.trim(), organization, accountGroups, options },
      {
        onSuccess: (report) => {
          toast.success(REPORT_TOASTS[kind].success);
          onSubmitted?.(report);
          close();
        },
        onError: (error) => {
          toast.error(failureMessage ? failureMessage(error) : REPORT_TOASTS[kind].failure, {
            title: error instanceof ApiRequestError && !failureMessage ? error.message : undefined,
          });
          if (failureMessage) close();
        },
      },
    );
  };

  const footer = (
    <>
      {step > 1 && (
        <button type="button" className={`${button} border border-slate-300`} onClick={() => setStep(step - 1)}>
          Previous
        </button>
      )}
      {step < lastStep ? (
        <button
          type="button"
          className={`${button} bg-brand-700 text-white`}
          disabled={!stepValid || isLoadingGroups}
          onClick={() => void handleNext()}
        >
          {isLoadingGroups ? 'Checking token…' : 'Next'}
        </button>
      ) : (
        <button
          type="button"
          className={`${button} bg-brand-700 text-white`}
          disabled={!stepValid || createReport.isPending}
          onClick={handleSubmit}
        >
          {createReport.isPending ? 'Submitting…' : 'Submit'}
        </button>
      )}
    </>
  );

  return (
    <Modal title={title} isOpen={mission !== null} onClose={close} footer={footer}>
      <ol className="mb-4 flex gap-4 text-sm" aria-label="Steps">
        {['OAuth', 'Selection', ...(lastStep === 3 ? ['Config'] : [])].map((label, index) => (
          <li
            key={label}
            aria-current={step === index + 1 ? 'step' : undefined}
            className={step === index + 1 ? 'font-semibold text-brand-800' : 'text-slate-500'}
          >
            {index + 1}. {label}
          </li>
        ))}
      </ol>
      {step === 1 && (
        <div className="space-y-2">
          <label htmlFor="wizard-token" className="block text-sm font-medium text-slate-700">
            OAuth token
          </label>
          <input
            id="wizard-token"
            type="password"
            autoComplete="off"
            value={token}
            onChange={(event) => setToken(event.target.value)}
            className="w-full rounded-md border border-slate-300 px-3 py-2 font-mono"
            placeholder="Bearer token of an Org Admin of the customer organization"
          />
          <p className="text-xs text-slate-500">
            The token is used for this report only and is erased when the report is done.
          </p>
        </div>
      )}
      {step === 2 && (
        <div className="space-y-3">
          <div>
            <label htmlFor="wizard-organization" className="block text-sm font-medium text-slate-700">
              Organization
            </label>
            <select
              id="wizard-organization"
              value={organizationId}
              onChange={(event) => {
                setOrganizationId(event.target.value);
                setSelected(new Set());
                setSearch('');
              }}
              className="mt-1 w-full rounded-md border border-slate-300 px-2 py-2"
            >
              <option value="">Select an organization</option>
              {organizations.map((organization) => (
                <option key={organization.id} value={organization.id}>
                  {organization.name}
                </option>
              ))}
            </select>
          </div>
          {organizationId && (
            <AccountGroupPicker
              groups={organizationGroups}
              selected={selected}
              onSelectedChange={setSelected}
              search={search}
              onSearchChange={setSearch}
            />
          )}
          {organizationId && needsAccounts && selected.size === 0 && (
            <p className="text-sm text-amber-700">Please select at least one account group</p>
          )}
          {kind === 'tam-activity' && (
            <label className="block text-sm">
              Days range{' '}
              <select
                value={tamDays}
                onChange={(event) => setTamDays(Number(event.target.value))}
                className="ml-2 rounded border border-slate-300 px-2 py-1"
              >
                {TAM_DAYS_RANGES.map((days) => (
                  <option key={days} value={days}>
                    {days}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
      )}
      {step === 3 && (
        <div className="space-y-3">
          <label className="block text-sm">
            Days range{' '}
            <select
              value={ahcDays}
              onChange={(event) => setAhcDays(Number(event.target.value))}
              className="ml-2 rounded border border-slate-300 px-2 py-1"
            >
              {AHC_IE_DAYS_RANGES.map((days) => (
                <option key={days} value={days}>
                  {days}
                </option>
              ))}
            </select>
          </label>
          <fieldset className="space-y-1 text-sm">
            <legend className="font-medium">Tables</legend>
            {AHC_TABLES.map((table) => (
              <label key={table} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={tables.has(table)}
                  onChange={() => {
                    const next = new Set(tables);
                    if (next.has(table)) next.delete(table);
                    else next.add(table);
                    setTables(next);
                  }}
                />
                {table}
              </label>
            ))}
          </fieldset>
        </div>
      )}
    </Modal>
  );
}

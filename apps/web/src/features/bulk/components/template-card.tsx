import { useEffect, useMemo } from 'react';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import {
  needsAgents,
  needsDomain,
  needsUrl,
  TEST_INTERVALS,
  TEST_TYPES,
  type BulkTestsFormValues,
  type TemplateField,
  type TestType,
} from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CheckList } from '../../../components/ui/check-list';
import { Select, TextArea, TextInput } from '../../../components/ui/field';
import { coverage, type CatalogueAgent, type GroupAgents } from '../agent-catalogue';

export const TEST_TYPE_LABELS: Record<TestType, string> = {
  'http-server': 'HTTP Server',
  'page-load': 'Page Load',
  'dns-server': 'DNS Server',
  'dns-trace': 'DNS Trace',
  'agent-to-server': 'Agent to Server',
  bgp: 'BGP',
};
const TYPE_OPTIONS = TEST_TYPES.map((type) => ({ value: type, label: TEST_TYPE_LABELS[type] }));
const INTERVAL_OPTIONS = TEST_INTERVALS.map((interval) => ({ value: String(interval.seconds), label: interval.label }));

/** Field labels of the two wizard variants: the hub's names the target fields and marks them required. */
export const FIELD_LABELS = {
  sidebar: { url: 'URL', domain: 'Domain', port: 'Port' },
  stepper: { url: 'URL *', domain: 'Domain/Server *', port: 'Port *' },
} as const;

export interface TemplateCardProps {
  index: number;
  onRemove: () => void;
  catalogue: CatalogueAgent[];
  groupAgents: GroupAgents[];
  labels: (typeof FIELD_LABELS)[keyof typeof FIELD_LABELS];
}

const EMPTY: string[] = [];
const byAgent = (agent: CatalogueAgent, needle: string) =>
  agent.agentName.toLowerCase().includes(needle) ||
  agent.location.toLowerCase().includes(needle) ||
  agent.agentType.toLowerCase().includes(needle);

/**
 * One test template of step 3: what to test, how often, from which agents. A field says what is wrong
 * once it was left, or after a submit (the form's onTouched mode).
 */
export function TemplateCard({ index, onRemove, catalogue, groupAgents, labels }: TemplateCardProps) {
  const { register, control, formState, trigger } = useFormContext<BulkTestsFormValues>();
  const path = `templates.${index}` as const;
  // Every card starts from newTestTemplate(): the fallbacks only satisfy the input type.
  const type = useWatch({ control, name: `${path}.testType` }) ?? 'http-server';
  const testName = useWatch({ control, name: `${path}.testName` }) ?? '';
  const { field: agentsField } = useController({ control, name: `${path}.agentNames` });
  // Once the user tried to run, a new type's own fields say at once what they lack, as the others do.
  const submitted = formState.isSubmitted;
  useEffect(() => {
    if (submitted) void trigger(path);
  }, [type, submitted, trigger, path]);
  const errorOf = (field: TemplateField) => formState.errors.templates?.[index]?.[field]?.message;
  const agentNames = agentsField.value ?? EMPTY;
  const chosen = useMemo(() => new Set(agentNames), [agentNames]);
  const perGroup = useMemo(() => coverage(agentNames, groupAgents), [agentNames, groupAgents]);
  const setAgents = (names: ReadonlySet<string>) => {
    // Keep the catalogue's order so the card and an exported file read the same way every time.
    agentsField.onChange(catalogue.map((agent) => agent.agentName).filter((name) => names.has(name)));
    agentsField.onBlur();
  };
  const title = testName.trim() || `Test template ${index + 1}`;

  return (
    <article
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      aria-label={`Test template ${index + 1}`}
      data-testid="template-card"
    >
      <header className="flex items-center justify-between">
        <h3 className="font-semibold">{title}</h3>
        <Button variant="ghost" size="sm" className="text-red-700" onClick={onRemove}>
          Remove
        </Button>
      </header>

      <div className="grid gap-4 md:grid-cols-3">
        <TextInput label="Test Name" error={errorOf('testName')} {...register(`${path}.testName`)} />
        <Select label="Test Type" options={TYPE_OPTIONS} {...register(`${path}.testType`)} />
        {type === 'bgp' ? (
          <p className="self-end text-sm text-slate-500">The platform measures BGP every 15 minutes.</p>
        ) : (
          <Select
            label="Interval"
            options={INTERVAL_OPTIONS}
            error={errorOf('interval')}
            {...register(`${path}.interval`, { valueAsNumber: true })}
          />
        )}
      </div>

      <div className="grid gap-4 md:grid-cols-3">
        {needsUrl(type) && (
          <TextInput
            label={labels.url}
            type="url"
            placeholder="https://www.example.com"
            error={errorOf('url')}
            {...register(`${path}.url`)}
          />
        )}
        {needsDomain(type) && (
          <TextInput
            label={labels.domain}
            placeholder="www.example.com"
            error={errorOf('domain')}
            {...register(`${path}.domain`)}
          />
        )}
        {type === 'agent-to-server' && (
          <TextInput
            label={labels.port}
            type="number"
            min={1}
            max={65535}
            error={errorOf('port')}
            {...register(`${path}.port`, { valueAsNumber: true })}
          />
        )}
        {type === 'dns-server' && (
          <TextInput
            label="DNS Servers"
            placeholder="ns1.example.com, 8.8.8.8"
            error={errorOf('dnsServers')}
            {...register(`${path}.dnsServers`)}
          />
        )}
        {type === 'bgp' && (
          <TextInput
            label="Prefix"
            placeholder="203.0.113.0/24"
            error={errorOf('prefix')}
            {...register(`${path}.prefix`)}
          />
        )}
      </div>

      {needsAgents(type) && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">Agents ({agentNames.length} selected)</legend>
          <CheckList
            items={catalogue}
            itemKey={(agent) => agent.agentName}
            matches={byAgent}
            selected={chosen}
            onSelectedChange={setAgents}
            label="Agents"
            noun="Agents"
            searchLabel="Search agents"
            emptyText="No agent matches."
            height="14rem"
            renderItem={(agent) => (
              <>
                <span className="truncate font-medium">{agent.agentName}</span>
                <span className="truncate text-slate-500">{agent.location}</span>
                <Badge>{agent.agentType}</Badge>
                <span className="ml-auto shrink-0 text-xs text-slate-500">
                  in {agent.aids.length} of {groupAgents.length} groups
                </span>
              </>
            )}
          />
          {errorOf('agentNames') && <p className="text-sm text-red-700">{errorOf('agentNames')}</p>}
          {agentNames.length > 0 && (
            <details className="text-sm" data-testid="agent-coverage">
              <summary className="cursor-pointer text-slate-700">Agents per account group</summary>
              <ul className="mt-1 space-y-0.5">
                {perGroup.map((group) => (
                  <li key={group.aid}>
                    <span className="font-medium">{group.accountGroupName}</span>:{' '}
                    {group.used.length > 0 ? group.used.join(', ') : <em>no agent, not created here</em>}
                    {group.missing.length > 0 && (
                      <span className="text-amber-800"> · missing {group.missing.join(', ')}</span>
                    )}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </fieldset>
      )}

      <div className="grid gap-4 md:grid-cols-3">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...register(`${path}.alertsEnabled`)} />
          Enable alerts
        </label>
        <TextArea
          label="Description (optional)"
          rows={2}
          fieldClassName="md:col-span-2"
          {...register(`${path}.description`)}
        />
      </div>
    </article>
  );
}

import { useId, useMemo, useState, type ReactNode } from 'react';
import {
  needsAgents,
  needsDomain,
  needsUrl,
  TEST_INTERVALS,
  TEST_TYPES,
  templateErrors,
  type TemplateField,
  type TestTemplate,
  type TestType,
} from '@ce/contract';
import { coverage, type CatalogueAgent, type GroupAgents } from '../agent-catalogue';
import { toggled } from './styles';

export const TEST_TYPE_LABELS: Record<TestType, string> = {
  'http-server': 'HTTP Server',
  'page-load': 'Page Load',
  'dns-server': 'DNS Server',
  'dns-trace': 'DNS Trace',
  'agent-to-server': 'Agent to Server',
  bgp: 'BGP',
};

/** Field labels of the two wizard variants: the hub's names the target fields and marks them required. */
export const FIELD_LABELS = {
  sidebar: { url: 'URL', domain: 'Domain', port: 'Port' },
  stepper: { url: 'URL *', domain: 'Domain/Server *', port: 'Port *' },
} as const;

export interface TemplateCardProps {
  index: number;
  template: TestTemplate;
  onChange: (template: TestTemplate) => void;
  onRemove: () => void;
  catalogue: CatalogueAgent[];
  groupAgents: GroupAgents[];
  /** Show every error, not only those of fields already visited (after a submit attempt). */
  showErrors: boolean;
  labels: (typeof FIELD_LABELS)[keyof typeof FIELD_LABELS];
}

type TextTemplateField = 'testName' | 'url' | 'domain' | 'dnsServers' | 'prefix';

const inputClass = 'mt-1 w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-500';

function Field({
  label,
  error,
  children,
  htmlFor,
}: {
  label: string;
  error?: string;
  children: ReactNode;
  htmlFor: string;
}) {
  return (
    <div>
      <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {error && <p className="mt-1 text-sm text-red-700">{error}</p>}
    </div>
  );
}

/** One test template of step 3: what to test, how often, from which agents. */
export function TemplateCard({
  index,
  template,
  onChange,
  onRemove,
  catalogue,
  groupAgents,
  showErrors,
  labels,
}: TemplateCardProps) {
  const id = useId();
  const [touched, setTouched] = useState<ReadonlySet<TemplateField>>(() => new Set());
  const [agentSearch, setAgentSearch] = useState('');
  const errors = templateErrors(template);
  const errorOf = (field: TemplateField) => (showErrors || touched.has(field) ? errors[field] : undefined);
  const touch = (field: TemplateField) => setTouched((previous) => new Set(previous).add(field));
  const set = <K extends TemplateField>(field: K, value: TestTemplate[K]) => onChange({ ...template, [field]: value });
  const type = template.testType;
  const chosen = useMemo(() => new Set(template.agentNames), [template.agentNames]);
  const visibleAgents = useMemo(() => {
    const needle = agentSearch.trim().toLowerCase();
    return needle
      ? catalogue.filter(
          (agent) =>
            agent.agentName.toLowerCase().includes(needle) ||
            agent.location.toLowerCase().includes(needle) ||
            agent.agentType.toLowerCase().includes(needle),
        )
      : catalogue;
  }, [agentSearch, catalogue]);
  const perGroup = useMemo(() => coverage(template.agentNames, groupAgents), [template.agentNames, groupAgents]);
  const setAgents = (names: Iterable<string>) => {
    const next = new Set(names);
    // Keep the catalogue's order so the card and an exported file read the same way every time.
    set(
      'agentNames',
      catalogue.map((agent) => agent.agentName).filter((name) => next.has(name)),
    );
    touch('agentNames');
  };
  const fieldId = (field: string) => `${id}-${field}`;
  const textField = (field: TextTemplateField, label: string, placeholder?: string, inputType = 'text') => (
    <Field label={label} htmlFor={fieldId(field)} error={errorOf(field)}>
      <input
        id={fieldId(field)}
        type={inputType}
        value={template[field]}
        placeholder={placeholder}
        onChange={(event) => set(field, event.target.value)}
        onBlur={() => touch(field)}
        aria-invalid={errorOf(field) ? true : undefined}
        className={inputClass}
      />
    </Field>
  );
  const title = template.testName.trim() || `Test template ${index + 1}`;

  return (
    <article
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      aria-label={`Test template ${index + 1}`}
      data-testid="template-card"
    >
      <header className="flex items-center justify-between">
        <h3 className="font-semibold">{title}</h3>
        <button type="button" onClick={onRemove} className="text-sm text-red-700 hover:underline">
          Remove
        </button>
      </header>

      <div className="grid gap-4 md:grid-cols-3">
        {textField('testName', 'Test Name')}
        <Field label="Test Type" htmlFor={fieldId('type')}>
          <select
            id={fieldId('type')}
            value={type}
            onChange={(event) => set('testType', event.target.value as TestType)}
            className={inputClass}
          >
            {TEST_TYPES.map((option) => (
              <option key={option} value={option}>
                {TEST_TYPE_LABELS[option]}
              </option>
            ))}
          </select>
        </Field>
        {type === 'bgp' ? (
          <p className="self-end text-sm text-slate-500">The platform measures BGP every 15 minutes.</p>
        ) : (
          <Field label="Interval" htmlFor={fieldId('interval')} error={errorOf('interval')}>
            <select
              id={fieldId('interval')}
              value={template.interval}
              onChange={(event) => set('interval', Number(event.target.value))}
              className={inputClass}
            >
              {TEST_INTERVALS.map((option) => (
                <option key={option.seconds} value={option.seconds}>
                  {option.label}
                </option>
              ))}
            </select>
          </Field>
        )}
      </div>

      <div className="grid gap-4 md:grid-cols-3">
        {needsUrl(type) && textField('url', labels.url, 'https://www.example.com', 'url')}
        {needsDomain(type) && textField('domain', labels.domain, 'www.example.com')}
        {type === 'agent-to-server' && (
          <Field label={labels.port} htmlFor={fieldId('port')} error={errorOf('port')}>
            <input
              id={fieldId('port')}
              type="number"
              min={1}
              max={65535}
              value={Number.isNaN(template.port) ? '' : template.port}
              onChange={(event) => set('port', event.target.value === '' ? Number.NaN : Number(event.target.value))}
              onBlur={() => touch('port')}
              aria-invalid={errorOf('port') ? true : undefined}
              className={inputClass}
            />
          </Field>
        )}
        {type === 'dns-server' && textField('dnsServers', 'DNS Servers', 'ns1.example.com, 8.8.8.8')}
        {type === 'bgp' && textField('prefix', 'Prefix', '203.0.113.0/24')}
      </div>

      {needsAgents(type) && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">Agents ({template.agentNames.length} selected)</legend>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <input
              type="search"
              value={agentSearch}
              onChange={(event) => setAgentSearch(event.target.value)}
              placeholder="Search agents"
              aria-label="Search agents"
              className="rounded-md border border-slate-300 px-2 py-1"
            />
            <button
              type="button"
              className="rounded border border-slate-300 px-2 py-1"
              onClick={() => setAgents([...chosen, ...visibleAgents.map((agent) => agent.agentName)])}
            >
              Select All Agents
            </button>
            <button
              type="button"
              className="rounded border border-slate-300 px-2 py-1"
              onClick={() => {
                const hidden = new Set(visibleAgents.map((agent) => agent.agentName));
                setAgents([...chosen].filter((name) => !hidden.has(name)));
              }}
            >
              Deselect All Agents
            </button>
          </div>
          <ul className="max-h-56 overflow-y-auto rounded-md border border-slate-200" aria-label="Agents">
            {visibleAgents.map((agent) => (
              <li key={agent.agentName} className="border-b border-slate-100 last:border-0">
                <label className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm hover:bg-slate-50">
                  <input
                    type="checkbox"
                    checked={chosen.has(agent.agentName)}
                    onChange={() => setAgents(toggled(chosen, agent.agentName))}
                  />
                  <span className="font-medium">{agent.agentName}</span>
                  <span className="text-slate-500">{agent.location}</span>
                  <span className="rounded bg-slate-100 px-1.5 text-xs text-slate-600">{agent.agentType}</span>
                  <span className="ml-auto text-xs text-slate-500">
                    in {agent.aids.length} of {groupAgents.length} groups
                  </span>
                </label>
              </li>
            ))}
            {visibleAgents.length === 0 && <li className="px-3 py-2 text-sm text-slate-500">No agent matches.</li>}
          </ul>
          {errorOf('agentNames') && <p className="text-sm text-red-700">{errorOf('agentNames')}</p>}
          {template.agentNames.length > 0 && (
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
          <input
            type="checkbox"
            checked={template.alertsEnabled}
            onChange={(event) => set('alertsEnabled', event.target.checked)}
          />
          Enable alerts
        </label>
        <div className="md:col-span-2">
          <label htmlFor={fieldId('description')} className="block text-sm font-medium text-slate-700">
            Description (optional)
          </label>
          <textarea
            id={fieldId('description')}
            value={template.description}
            rows={2}
            onChange={(event) => set('description', event.target.value)}
            className={inputClass}
          />
        </div>
      </div>
    </article>
  );
}

/** How many account groups, agents and templates the session has, at a glance. */
export function QuickInfo({ groups, agents, templates }: { groups: number; agents: number; templates: number }) {
  return (
    <dl className="grid grid-cols-3 gap-2 rounded-md bg-slate-50 p-3 text-center text-sm" aria-label="Quick Info">
      {(
        [
          ['Account groups', groups, 'info-groups'],
          ['Agents', agents, 'info-agents'],
          ['Templates', templates, 'info-templates'],
        ] as const
      ).map(([label, count, testId]) => (
        <div key={testId}>
          <dt className="text-slate-500">{label}</dt>
          <dd className="text-lg font-semibold" data-testid={testId}>
            {count}
          </dd>
        </div>
      ))}
    </dl>
  );
}

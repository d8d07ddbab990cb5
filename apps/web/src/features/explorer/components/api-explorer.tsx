import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { explorerCallSchema, type ApiOperation, type ExplorerAnswer } from '@ce/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Select, TextArea, TextInput } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast-store';
import { announcePlatformTokenRefused } from '../../../lib/api-client';
import { downloadText } from '../../../lib/download';
import { useCallOperation } from '../api/call-operation';
import { useOperations } from '../api/operations';
import { toCsv } from '../export';
import { JsonTree } from './json-tree';
import { TokenField } from '../../../components/ui/token-field';

const METHOD_TONES: Record<ApiOperation['method'], BadgeTone> = {
  GET: 'info',
  POST: 'success',
  PUT: 'warning',
  PATCH: 'warning',
  DELETE: 'danger',
};

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** An operation's form: the contract's token rule, one text per parameter, and a JSON body for writes. */
const operationFormSchema = (withBody: boolean) =>
  explorerCallSchema.pick({ token: true }).extend({
    params: z.array(z.string()),
    body: withBody ? z.string().refine(isJson, 'The body is not valid JSON') : z.string(),
  });
type OperationValues = z.input<ReturnType<typeof operationFormSchema>>;

/** API Tools: the platform's operations from its document, a form per operation, and its answer. */
export function ApiExplorer({ canWrite }: { canWrite: boolean }) {
  const operations = useOperations();
  const [search, setSearch] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const list = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (operations.data?.operations ?? []).filter((operation) =>
      `${operation.method} ${operation.path} ${operation.summary} ${operation.tag}`.toLowerCase().includes(needle),
    );
  }, [operations.data, search]);
  const selected = operations.data?.operations.find((operation) => operation.id === selectedId) ?? null;
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">API Tools</h1>
      <p className="max-w-3xl text-slate-700">
        Call the monitoring platform&apos;s API v7 with a customer&apos;s token: pick an operation, fill its parameters,
        and see the status, the rate-limit headers, the time and the answer. Calls are paced by the organization&apos;s
        rate limit; the token is used for the call only and never kept.
        {canWrite
          ? ' Writes ask for a confirmation and are recorded in the audit log.'
          : ' Your role can read; writes are for Super Users.'}
      </p>
      {operations.isPending && <Spinner label="Loading the API document" />}
      {operations.isError && (
        <Banner tone="error" action={<Button onClick={() => void operations.refetch()}>Retry</Button>}>
          {operations.error.message}
        </Banner>
      )}
      {operations.data && (
        <div className="flex flex-col gap-4 lg:flex-row">
          <nav aria-label="Operations" className="space-y-2 lg:w-96">
            <TextInput
              label="Search operations"
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              hint={`${list.length} of ${operations.data.operations.length} from ${operations.data.source}`}
            />
            <ul className="max-h-[65vh] space-y-1 overflow-auto">
              {list.map((operation) => (
                <li key={operation.id}>
                  <button
                    type="button"
                    aria-current={operation.id === selectedId}
                    onClick={() => setSelectedId(operation.id)}
                    className="flex w-full items-center gap-2 rounded px-2 py-1 text-left text-sm hover:bg-slate-100 aria-[current=true]:bg-brand-50"
                  >
                    <Badge tone={METHOD_TONES[operation.method]} className="w-16 justify-center">
                      {operation.method}
                    </Badge>
                    <span className="truncate font-mono">{operation.path}</span>
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          <div className="min-w-0 flex-1">
            {selected ? (
              <OperationForm key={selected.id} operation={selected} canWrite={canWrite} />
            ) : (
              <p className="text-slate-500">Choose an operation.</p>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

function OperationForm({ operation, canWrite }: { operation: ApiOperation; canWrite: boolean }) {
  const writes = operation.method !== 'GET';
  const schema = useMemo(() => operationFormSchema(writes && operation.hasBody), [writes, operation.hasBody]);
  const form = useForm<OperationValues>({
    resolver: zodResolver(schema),
    defaultValues: { token: '', params: operation.parameters.map(() => ''), body: '{\n}' },
  });
  const [confirming, setConfirming] = useState(false);
  const [answer, setAnswer] = useState<ExplorerAnswer | null>(null);
  const call = useCallOperation();

  // Checked when sent (a write after its confirmation), in the order the page says what is missing.
  const send = (options: { confirm?: boolean; nextHref?: string } = {}) =>
    void form.handleSubmit(
      (valid) => {
        const pick = (where: 'path' | 'query') =>
          Object.fromEntries(
            operation.parameters.flatMap((parameter, index) =>
              parameter.in === where ? [[parameter.name, valid.params[index] ?? '']] : [],
            ),
          );
        call.mutate(
          {
            token: valid.token,
            operationId: operation.id,
            pathParams: pick('path'),
            query: pick('query'),
            body: writes && operation.hasBody ? JSON.parse(valid.body) : undefined,
            confirm: options.confirm ?? false,
            nextHref: options.nextHref,
          },
          {
            onSuccess: (answer) => {
              setAnswer(answer);
              // The platform refused the token: the chosen customer is cleared if it was its token, as in every tool.
              if (answer.status === 401) announcePlatformTokenRefused({ token: valid.token });
            },
          },
        );
      },
      (errors) => toast.error(errors.token?.message ?? errors.body?.message ?? 'Check the parameters'),
    )();

  return (
    <article aria-label="Operation" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <div>
        <h2 className="flex items-center gap-2 font-mono text-lg">
          <Badge tone={METHOD_TONES[operation.method]}>{operation.method}</Badge>
          {operation.path}
        </h2>
        <p className="text-sm text-slate-600">
          {operation.summary} · {operation.id}
        </p>
      </div>
      <form
        className="space-y-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (writes) setConfirming(true);
          else send();
        }}
      >
        <TokenField {...form.register('token')} />
        <div className="grid gap-3 sm:grid-cols-2">
          {operation.parameters.map((parameter, index) =>
            parameter.enum.length > 0 && !parameter.isArray ? (
              <Select
                key={`${parameter.in}:${parameter.name}`}
                label={`${parameter.name}${parameter.required ? ' *' : ''}`}
                hint={parameter.description}
                placeholder="(not sent)"
                options={parameter.enum.map((value) => ({ value, label: value }))}
                {...form.register(`params.${index}`)}
              />
            ) : (
              <TextInput
                key={`${parameter.in}:${parameter.name}`}
                label={`${parameter.name}${parameter.required ? ' *' : ''}`}
                hint={[
                  parameter.in === 'path' ? 'path' : 'query',
                  parameter.isArray
                    ? `comma-separated${parameter.enum.length ? `: ${parameter.enum.join(', ')}` : ''}`
                    : parameter.type,
                  parameter.description,
                ]
                  .filter(Boolean)
                  .join(' · ')}
                {...form.register(`params.${index}`)}
              />
            ),
          )}
        </div>
        {writes && operation.hasBody && (
          <TextArea label="Body (JSON)" rows={6} className="font-mono text-sm" {...form.register('body')} />
        )}
        {writes && !canWrite ? (
          <p className="text-sm text-amber-800">Writes through the explorer are for Super Users.</p>
        ) : (
          <Button type="submit" variant="primary" busy={call.isPending} busyLabel="Calling">
            Send
          </Button>
        )}
      </form>
      <Dialog
        title={`Send ${operation.method} ${operation.path}?`}
        isOpen={confirming}
        onClose={() => setConfirming(false)}
        footer={
          <>
            <Button onClick={() => setConfirming(false)}>Cancel</Button>
            <Button
              variant="danger"
              onClick={() => {
                setConfirming(false);
                send({ confirm: true });
              }}
            >
              Send the write
            </Button>
          </>
        }
      >
        <p>This changes the customer&apos;s organization and is recorded in the audit log.</p>
      </Dialog>
      {answer && (
        <AnswerView
          answer={answer}
          operation={operation}
          busy={call.isPending}
          onNext={(href) => send({ nextHref: href })}
        />
      )}
    </article>
  );
}

function AnswerView({
  answer,
  operation,
  busy,
  onNext,
}: {
  answer: ExplorerAnswer;
  operation: ApiOperation;
  busy: boolean;
  onNext: (href: string) => void;
}) {
  const csv = toCsv(answer.body);
  const base = operation.id.replace(/[^\w-]+/g, '_');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(answer.curl);
      toast.success('The call is copied as curl (the token is $TE_TOKEN)');
    } catch {
      toast.error('The call could not be copied');
    }
  };
  return (
    <section aria-label="Answer" className="space-y-3 border-t border-slate-100 pt-3">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <Badge
          tone={answer.status < 300 ? 'success' : answer.status < 500 ? 'warning' : 'danger'}
          data-testid="answer-status"
        >
          {answer.status}
        </Badge>
        <span data-testid="answer-time">{answer.durationMs} ms</span>
        <span data-testid="answer-url" className="truncate font-mono text-xs text-slate-600">
          {answer.url}
        </span>
      </div>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 text-xs" aria-label="Headers">
        {Object.entries(answer.headers).map(([name, value]) => (
          <div key={name} className="contents">
            <dt className="font-mono text-slate-600">{name}</dt>
            <dd className="font-mono">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="flex flex-wrap gap-2">
        {answer.nextHref && (
          <Button size="sm" busy={busy} onClick={() => onNext(answer.nextHref ?? '')}>
            Follow next page
          </Button>
        )}
        <Button
          size="sm"
          onClick={() => downloadText(`${base}.json`, JSON.stringify(answer.body, null, 2), 'application/json')}
        >
          Export JSON
        </Button>
        <Button size="sm" disabled={csv === null} onClick={() => csv && downloadText(`${base}.csv`, csv, 'text/csv')}>
          Export CSV
        </Button>
        <Button size="sm" onClick={() => void copy()}>
          Copy as curl
        </Button>
      </div>
      <div aria-label="Body" className="max-h-[60vh] overflow-auto rounded bg-slate-50 p-2 font-mono text-xs">
        <JsonTree value={answer.body} />
      </div>
    </section>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  shareCaptureSchema,
  PCAP_MESSAGES,
  type CaptureEntry,
  type CaptureList,
  type CaptureListItem,
  type CaptureSummary,
} from '@ce/contract';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';
import { TextInput } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { captureFileUrl, useCapture } from '../api/capture';
import { useAnalyzeCapture } from '../api/analyze-capture';
import { useCaptures } from '../api/captures';
import { useShareCapture } from '../api/share-capture';
import { TimelineChart } from './timeline-chart';
import { FilePicker, UploadProgress } from '../../../components/ui/file-picker';
import { dateTime } from '../../../lib/dates';

type Conversation = CaptureSummary['conversations'][number];
type DnsEntry = CaptureSummary['dns'][number];

/** The upload form: one capture file (the server recognises it by its content). */
const captureUploadSchema = z.object({ file: z.instanceof(File, { message: PCAP_MESSAGES.fileRequired }) });
type CaptureUpload = z.input<typeof captureUploadSchema>;
type ShareCapture = z.input<typeof shareCaptureSchema>;

const CONVERSATION_COLUMNS: ColumnDef<Conversation, unknown>[] = [
  { header: 'Protocol', accessorKey: 'protocol' },
  { header: 'Endpoint A', accessorKey: 'a' },
  { header: 'Endpoint B', accessorKey: 'b' },
  { header: 'Packets', accessorKey: 'packets' },
  { header: 'Bytes', accessorKey: 'bytes' },
];
const DNS_COLUMNS: ColumnDef<DnsEntry, unknown>[] = [
  { header: 'Time', accessorKey: 'time' },
  { header: 'Kind', accessorFn: (row) => (row.response ? 'response' : 'query') },
  { header: 'Question', accessorKey: 'question' },
  { header: 'Type', accessorKey: 'type' },
  { header: 'Answers', accessorFn: (row) => row.answers.join(', ') },
];

const number = (value: number) => value.toLocaleString('en-US');

const LIST_NAMES: Record<CaptureSummary['cut'][number]['list'], string> = {
  conversations: 'conversations',
  dns: 'DNS messages',
  tlsServerNames: 'TLS server names',
};

/** What a list left out, said under it: "Showing 100 of 2,000 TLS server names." */
function CutNote({ summary, list }: { summary: CaptureSummary; list: CaptureSummary['cut'][number]['list'] }) {
  const cut = summary.cut.find((item) => item.list === list);
  if (!cut) return null;
  return (
    <p className="text-xs text-slate-600">
      Showing {number(cut.shown)} of {number(cut.total)} {LIST_NAMES[list]}.
    </p>
  );
}

/** PCAP Support: upload a capture, read its summary, share it with a case, and the history. */
export function CaptureTool({ userEmail }: { userEmail: string }) {
  const form = useForm<CaptureUpload>({ resolver: zodResolver(captureUploadSchema) });
  const [progress, setProgress] = useState(0);
  const [shownId, setShownId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const analyze = useAnalyzeCapture({ errorTitle: 'The capture could not be read' });
  const captures = useCaptures(page);
  // The capture shown is read from its own query: the upload's answer seeds it, sharing updates it.
  const opened = useCapture(shownId);
  const shown = opened.data ?? null;

  const submit = form.handleSubmit(
    ({ file }) => analyzeFile(file),
    (errors) => toast.error(errors.file?.message ?? PCAP_MESSAGES.fileRequired),
  );
  const analyzeFile = (file: File) => {
    setProgress(0);
    analyze.mutate(
      { file, onProgress: setProgress },
      {
        onSuccess: (entry) => {
          setShownId(entry.id);
          if (entry.summary.problem)
            toast.warning(entry.summary.problem.message, { title: 'Read up to a damaged part' });
        },
      },
    );
  };

  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-semibold">PCAP Support</h1>
      <p className="max-w-3xl text-slate-700">
        Upload a packet capture from a customer case (pcap or pcapng) for what capinfos and a first look in Wireshark
        show: the file, its protocols, the top conversations, TCP resets and retransmissions, DNS, TLS server names and
        a timeline. It is kept for the retention period and can be sent with its case in Webex.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <FilePicker
          label="Capture file"
          hint="Recognised by its content, not its name"
          accept=".pcap,.pcapng,.cap,application/vnd.tcpdump.pcap"
          onFile={(file) => (file ? form.setValue('file', file) : form.resetField('file'))}
        />
        <Button
          variant="primary"
          onClick={() => void submit()}
          busy={analyze.isPending}
          busyLabel="Reading the capture"
        >
          Analyze capture
        </Button>
        {analyze.isPending && <UploadProgress className="w-48" share={progress} />}
      </div>
      {shown && <CaptureView entry={shown} userEmail={userEmail} />}
      <History list={captures.data} onShow={setShownId} onPage={setPage} />
    </section>
  );
}

function CaptureView({ entry, userEmail }: { entry: CaptureEntry; userEmail: string }) {
  const summary = entry.summary;
  const overview: [string, string][] = [
    ['File', `${entry.filename} (${number(summary.fileBytes)} bytes)`],
    ['Format', `${summary.format} ${summary.version}`],
    ['Link type', `${summary.linkTypeName}${summary.linkType === null ? '' : ` (${summary.linkType})`}`],
    ['Packets', number(summary.packets)],
    ['Data size', `${number(summary.bytes)} bytes`],
    ['First packet', summary.firstPacket ?? 'n/a'],
    ['Last packet', summary.lastPacket ?? 'n/a'],
    ['Duration', `${summary.durationSeconds} s`],
    ['Average packet rate', `${summary.averagePacketsPerSecond} packets/s`],
    ['Average data rate', `${summary.averageBytesPerSecond} bytes/s`],
    ['Average packet size', `${summary.averagePacketBytes} bytes`],
    ['TCP resets', number(summary.tcpResets)],
    ['Probable retransmissions', number(summary.tcpRetransmissions)],
    ['SHA-256', summary.sha256],
  ];
  const protocols = Object.entries(summary.protocols).filter(([, count]) => count > 0);
  return (
    <article aria-label="Capture summary" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-xl font-semibold">{entry.filename}</h2>
        <a className="text-brand-700 underline" href={captureFileUrl(entry.id)} download>
          Download the capture
        </a>
      </div>
      {summary.problem && (
        <Banner tone="warning">{summary.problem.message} The summary covers what was read before that point.</Banner>
      )}
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]" aria-label="Overview">
        {overview.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd data-testid={`overview-${label}`} className="break-all">
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <section aria-label="Protocols">
        <h3 className="font-semibold">Protocols</h3>
        <ul className="flex flex-wrap gap-2 text-sm">
          {protocols.map(([name, count]) => (
            <li key={name} data-testid={`protocol-${name}`} className="rounded bg-slate-100 px-2 py-0.5">
              {name}: {number(count)}
            </li>
          ))}
        </ul>
      </section>
      <TimelineChart timeline={summary.timeline} />
      <DataTable
        label="Top conversations"
        data={summary.conversations}
        columns={CONVERSATION_COLUMNS}
        empty="No IP conversations."
      />
      <CutNote summary={summary} list="conversations" />
      <DataTable label="DNS" data={summary.dns} columns={DNS_COLUMNS} empty="No DNS messages." maxHeight={240} />
      <CutNote summary={summary} list="dns" />
      <section aria-label="TLS server names">
        <h3 className="font-semibold">TLS server names</h3>
        {summary.tlsServerNames.length ? (
          <ul className="text-sm">
            {summary.tlsServerNames.map((item) => (
              <li key={item.name}>
                {item.name} ({item.count})
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">No TLS ClientHello with a server name.</p>
        )}
        <CutNote summary={summary} list="tlsServerNames" />
      </section>
      <ShareForm entry={entry} userEmail={userEmail} />
    </article>
  );
}

function ShareForm({ entry, userEmail }: { entry: CaptureEntry; userEmail: string }) {
  const form = useForm<ShareCapture>({
    resolver: zodResolver(shareCaptureSchema),
    defaultValues: { email: userEmail, caseNumber: '' },
  });
  const share = useShareCapture();
  const caseNumber = useWatch({ control: form.control, name: 'caseNumber' });
  const send = form.handleSubmit((values) =>
    share.mutate({ id: entry.id, ...values }, { onSuccess: () => toast.success(PCAP_MESSAGES.shared) }),
  );
  return (
    <section aria-label="Share in Webex" className="space-y-2 rounded-md bg-slate-50 p-3">
      <h3 className="font-semibold">Share with a case in Webex</h3>
      <div className="flex flex-wrap items-end gap-3">
        <TextInput
          label="Case number"
          error={form.formState.errors.caseNumber?.message}
          {...form.register('caseNumber')}
        />
        <TextInput
          label="Send to"
          type="email"
          error={form.formState.errors.email?.message}
          {...form.register('email')}
        />
        <Button onClick={() => void send()} busy={share.isPending} busyLabel="Sending" disabled={!caseNumber.trim()}>
          Send in Webex
        </Button>
      </div>
      {entry.sharedWith.length > 0 && (
        <p className="text-xs text-slate-600">
          Sent: {entry.sharedWith.map((item) => `${item.caseNumber} to ${item.email}`).join('; ')}
        </p>
      )}
    </section>
  );
}

function History({
  list,
  onShow,
  onPage,
}: {
  list: CaptureList | undefined;
  onShow: (id: string) => void;
  onPage: (page: number) => void;
}) {
  const pages = list ? Math.max(1, Math.ceil(list.total / list.pageSize)) : 1;
  const columns: ColumnDef<CaptureListItem, unknown>[] = [
    {
      header: 'File',
      accessorKey: 'filename',
      cell: ({ row }) => (
        <Button variant="link" onClick={() => onShow(row.original.id)}>
          {row.original.filename}
        </Button>
      ),
    },
    { header: 'Uploaded', accessorFn: (row) => dateTime(row.createdAt) },
    { header: 'By', accessorKey: 'uploadedBy' },
    { header: 'Packets', accessorFn: (row) => number(row.packets) },
    { header: 'Shared', accessorFn: (row) => row.sharedWith.map((item) => item.caseNumber).join(', ') },
  ];
  return (
    <section aria-label="History" className="space-y-2">
      <h2 className="text-lg font-semibold">History</h2>
      <DataTable label="Captures kept" data={list?.captures ?? []} columns={columns} empty="No capture yet." />
      {list && list.total > list.pageSize && (
        <nav aria-label="History pages" className="flex items-center gap-3 text-sm">
          <Button onClick={() => onPage(list.page - 1)} disabled={list.page <= 1}>
            Previous page
          </Button>
          <span>
            Page {list.page} of {pages} ({number(list.total)} captures)
          </span>
          <Button onClick={() => onPage(list.page + 1)} disabled={list.page >= pages}>
            Next page
          </Button>
        </nav>
      )}
    </section>
  );
}

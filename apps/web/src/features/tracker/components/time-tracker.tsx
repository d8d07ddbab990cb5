import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  creationOutcome,
  TEMPLATE_VERSION_LABEL,
  TRACKER_LIMITS,
  TRACKER_MESSAGES,
  TRACKER_PROGRESS_MESSAGES,
  weekStarts,
  type CreateTasksResponse,
  type TaskResult,
  type TrackerRow,
} from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Select } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast-store';
import { ApiRequestError } from '../../../lib/api-client';
import { resultsUrl } from '../api/results-url';
import { useCreateTasks } from '../api/create-tasks';
import { useDownloadTemplate } from '../api/download-template';
import { useParseFile } from '../api/parse-file';
import { byEngagement, fileProblem } from '../file-check';
import { TaskTable } from './task-table';
import { FilePicker, UploadProgress } from '../../../components/ui/file-picker';
import { apiErrorText, type ErrorToastMeta } from '../../../lib/error-toasts';

/** The Time Tracking page: instructions, the template, and the 'TAM Time Tracker' modal. */
/** The upload form: the week and the file, checked as the spec says before anything is sent. */
const uploadSchema = z
  .object({ weekStart: z.string(), file: z.custom<File | null>() })
  .superRefine(({ file, weekStart }, context) => {
    const problem = fileProblem(file, weekStart);
    if (problem) context.addIssue({ code: 'custom', path: ['file'], message: problem });
  });
type UploadValues = z.infer<typeof uploadSchema>;

/** What a failed upload says, in the banner and in its toast. */
const uploadFailure = (error: unknown) =>
  error instanceof ApiRequestError ? TRACKER_MESSAGES.uploadFailed(error.message) : TRACKER_MESSAGES.uploadUnexpected;
const UPLOAD_ERRORS: ErrorToastMeta = { errorMessage: uploadFailure, errorTitle: TRACKER_MESSAGES.uploadFailedToast };
const CREATE_ERRORS: ErrorToastMeta = { errorMessage: (error) => TRACKER_MESSAGES.requestFailed(apiErrorText(error)) };

export function TimeTracker() {
  const [open, setOpen] = useState(false);
  const template = useDownloadTemplate();
  return (
    <section className="max-w-3xl space-y-4">
      <h1 className="text-2xl font-semibold">Time Tracking</h1>
      <p className="text-slate-700">Log a week of hours as Salesforce tasks against your engagements in three steps:</p>
      <ol className="list-decimal space-y-1 pl-5 text-slate-700">
        <li>Download the Excel template and fill one row per piece of work (Engagement_ID, task type, date, hours).</li>
        <li>Open the tracker, choose the week and upload the file (.xlsx, .xls or .csv, under 10 MB).</li>
        <li>Check the rows grouped by engagement, keep the ones to log, and create the tasks.</li>
      </ol>
      <p className="text-sm text-slate-500">
        Uploading the same file again is safe: rows already created are reported and not created twice.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          onClick={() => template.mutate(undefined, {})}
          busy={template.isPending}
          busyLabel="Downloading the template"
        >
          Download Excel Template
        </Button>
        <Badge tone="info">{TEMPLATE_VERSION_LABEL}</Badge>
        <Button variant="primary" onClick={() => setOpen(true)}>
          Open Time Tracker
        </Button>
      </div>
      <TrackerDialog isOpen={open} onClose={() => setOpen(false)} />
    </section>
  );
}

/** The progress panel's message: the spec's six, one every 30 seconds while `running`. */
function useRotatingMessage(running: boolean) {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(
      () => setIndex((current) => Math.min(current + 1, TRACKER_PROGRESS_MESSAGES.length - 1)),
      TRACKER_LIMITS.progressRotateMs,
    );
    return () => {
      clearInterval(timer);
      setIndex(0);
    };
  }, [running]);
  return TRACKER_PROGRESS_MESSAGES[index];
}

function TrackerDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const weeks = useMemo(() => weekStarts(), []);
  const form = useForm<UploadValues>({
    resolver: zodResolver(uploadSchema),
    defaultValues: { weekStart: weeks.at(-1) ?? '', file: null },
  });
  const weekStart = useWatch({ control: form.control, name: 'weekStart' });
  const file = useWatch({ control: form.control, name: 'file' });
  const [fileKey, setFileKey] = useState(0);
  const [progress, setProgress] = useState(0);
  const [rows, setRows] = useState<TrackerRow[] | null>(null);
  const [warnings, setWarnings] = useState<string[]>([]);
  const [closed, setClosed] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [answer, setAnswer] = useState<CreateTasksResponse | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const parse = useParseFile(UPLOAD_ERRORS);
  const create = useCreateTasks(CREATE_ERRORS);
  const message = useRotatingMessage(create.isPending);

  // Leaving the page while tasks are being created would lose the answer: the browser asks first.
  useEffect(() => {
    if (!create.isPending) return undefined;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [create.isPending]);

  const startOver = () => {
    setRows(null);
    setWarnings([]);
    setClosed(new Set());
    setSelected(new Set());
    setAnswer(null);
    form.setValue('file', null);
    setFileKey((key) => key + 1);
    setUploadError(null);
    setProgress(0);
    parse.reset();
    create.reset();
  };
  const close = () => {
    if (create.isPending) {
      toast.warning(TRACKER_MESSAGES.requestInProgress);
      return;
    }
    startOver();
    form.reset({ weekStart: weeks.at(-1) ?? '', file: null });
    onClose();
  };

  const upload = () => {
    if (parse.isPending) {
      toast.warning(TRACKER_MESSAGES.uploadInProgress);
      return;
    }
    void form.handleSubmit(
      (valid) => send(valid.file as File, valid.weekStart),
      // The spec's checks before sending (section 5), in its words.
      (errors) =>
        toast.error(errors.file?.message ?? errors.weekStart?.message ?? TRACKER_MESSAGES.fileAndDateRequired),
    )();
  };
  const send = (file: File, weekStart: string) => {
    setUploadError(null);
    setProgress(0);
    parse.mutate(
      { file, weekStart, onProgress: setProgress },
      {
        onSuccess: (parsed) => {
          setRows(parsed.data);
          setWarnings(parsed.warnings);
          const closedNow = new Set(parsed.closedEngagements);
          setClosed(closedNow);
          // A closed engagement's rows would be refused: kept out unless ticked again.
          setSelected(new Set(parsed.data.filter((row) => !closedNow.has(row.Engagement_ID)).map((row) => row.row)));
          if (parsed.warnings.length > 0)
            toast.warning(parsed.warnings.slice(0, 3).join(' ') + (parsed.warnings.length > 3 ? ' …' : ''), {
              title: `${parsed.warnings.length} warning${parsed.warnings.length === 1 ? '' : 's'}`,
            });
        },
        onError: (error) => setUploadError(uploadFailure(error)),
      },
    );
  };

  const submit = () => {
    if (create.isPending) {
      toast.warning(TRACKER_MESSAGES.requestInProgress);
      return;
    }
    const tasks = (rows ?? []).filter((row) => selected.has(row.row));
    if (tasks.length === 0) {
      toast.error(TRACKER_MESSAGES.noRowSelected);
      return;
    }
    create.mutate(
      { weekStart, fileName: file?.name ?? 'hours', tasks },
      {
        onSuccess: (result) => {
          setAnswer(result);
          const outcome = creationOutcome(result);
          toast[outcome.tone](outcome.message);
          if (outcome.closes) setTimeout(close, TRACKER_LIMITS.closeAfterMs);
        },
      },
    );
  };

  const results = useMemo(
    () => new Map<number, TaskResult>((answer?.results ?? []).map((result) => [result.row, result])),
    [answer],
  );
  const groups = useMemo(() => byEngagement(rows ?? []), [rows]);
  const chosen = (rows ?? []).filter((row) => selected.has(row.row));
  const total = Math.round(chosen.reduce((sum, row) => sum + row.hours_spent, 0) * 100) / 100;
  const title = parse.isPending
    ? 'TAM Time Tracker - Uploading...'
    : create.isPending
      ? 'TAM Time Tracker - Processing...'
      : 'TAM Time Tracker';

  const footer = rows ? (
    <>
      <Button onClick={startOver} disabled={create.isPending}>
        Upload Different File
      </Button>
      <Button variant="primary" onClick={submit} busy={create.isPending} busyLabel="Creating tasks">
        Create Selected Tasks
      </Button>
    </>
  ) : (
    <Button variant="primary" onClick={upload} busy={parse.isPending} busyLabel="Uploading">
      Upload &amp; Process File
    </Button>
  );

  return (
    <Dialog title={title} isOpen={isOpen} onClose={close} footer={footer} width="max-w-6xl">
      {!rows && (
        <div className="space-y-4">
          <Select
            label="Week starting"
            options={weeks.map((week) => ({ value: week, label: week }))}
            {...form.register('weekStart')}
          />
          <FilePicker
            key={fileKey}
            label="Hours file"
            hint=".xlsx, .xls or .csv, under 10 MB"
            accept=".xlsx,.xls,.csv"
            onFile={(chosen) => form.setValue('file', chosen)}
          />
          {parse.isPending && <UploadProgress share={progress} afterUpload="Reading the rows…" />}
          {uploadError && <Banner tone="error">{uploadError}</Banner>}
        </div>
      )}
      {rows && (
        <div className="space-y-4">
          {warnings.length > 0 && (
            <Banner tone="warning">
              <p className="font-medium">
                {warnings.length} warning{warnings.length === 1 ? '' : 's'}
              </p>
              <ul aria-label="Warnings" className="mt-1 max-h-28 list-disc overflow-auto pl-5">
                {warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            </Banner>
          )}
          {create.isPending && (
            <div
              role="status"
              className="flex items-center gap-3 rounded-md border border-brand-100 bg-brand-50 p-3 text-sm"
            >
              <Spinner label="Creating tasks" />
              <div>
                <p className="font-medium">{message}…</p>
                <p>Please don&apos;t switch tabs or close this window while the tasks are created (up to 3 minutes).</p>
              </div>
            </div>
          )}
          <TaskTable
            groups={groups}
            selected={selected}
            closed={closed}
            onSelectedChange={setSelected}
            results={results}
            disabled={create.isPending}
          />
          <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
            <p data-testid="overall-total">
              {chosen.length} of {rows.length} rows selected · Total: <strong>{total}</strong> hours
            </p>
            {answer && (
              <a className="text-brand-700 underline" href={resultsUrl(answer.resultsFileId)} download>
                Download results
              </a>
            )}
          </div>
        </div>
      )}
    </Dialog>
  );
}

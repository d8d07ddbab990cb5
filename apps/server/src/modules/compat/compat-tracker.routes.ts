import type { FastifyInstance } from 'fastify';
import { createTasksResponseSchema, trackerRowSchema, weekStarts } from '@ce/contract';
import { AppError } from '../../core/errors.js';
import { recordsOf } from '../../core/json.js';
import { originalCall } from './compat-kit.js';
import { forward } from './forward.js';
import { HOURS_UPLOAD_FORM } from '../tracker/index.js';
import { encodeForm, readOriginalForm } from './multipart.js';
import { isObject } from './original-body.js';
import { missionBody } from './translations.js';

type Json = Record<string, unknown>;
/** A due date as the product takes it: YYYY-MM-DD and a day of the calendar (not 2025-02-30, not 9999-99-99). */
const isDate = (value: unknown) => trackerRowSchema.shape.due_date.safeParse(value).success;
/** The Monday of a date's week (YYYY-MM-DD), as the week select counts it; this week without a date. */
const weekOf = (date: string | undefined) =>
  weekStarts(date ? new Date(`${date}T12:00:00Z`) : new Date(), 'UTC').at(-1) ?? '';

/** The original tracker service's calls under `prefix`: the hours file read, then the tasks created in the CRM. */
export function compatTrackerRoutes(app: FastifyInstance, prefix: string): void {
  originalCall(
    app,
    'POST',
    `${prefix}parse-logs-tam/`,
    'compatParseLogs',
    'Read an hours file (multipart: file, selectedDate); answers data and warnings',
    async (request) => {
      // The product's own upload limits: the same form, so the same parts.
      const { fields, files } = await readOriginalForm(request, HOURS_UPLOAD_FORM);
      const upload = new FormData();
      const file = files.get('file');
      if (file) upload.set('file', new Blob([new Uint8Array(file)]), 'hours');
      upload.set('selectedDate', fields.selectedDate ?? '');
      const { payload, contentType } = await encodeForm(upload);
      return (
        await forward(app, request, {
          method: 'POST',
          url: '/api/tracker/parse',
          payload,
          headers: { 'content-type': contentType },
        })
      ).body;
    },
    { config: { upload: true } },
  );

  originalCall(
    app,
    'POST',
    `${prefix}create-tasks-sfdc/`,
    'compatCreateTasks',
    'Create the chosen rows as CRM tasks',
    async (request, _reply, user) => {
      const raw = request.body;
      const { fields } = missionBody(isObject(raw) && isObject(raw.data) ? raw.data : raw, user, 'TAM Create Tasks');
      const tasks = recordsOf(fields.tasks)
        .filter((task) => task.selected !== false)
        .map((task, index): Json => ({ ...task, row: Number.isInteger(task.row) ? task.row : index + 2 }));
      const undated = tasks.find((task) => task.due_date !== undefined && !isDate(task.due_date));
      if (undated)
        throw new AppError(
          400,
          'validation_failed',
          `Row ${String(undated.row)}: due_date "${String(undated.due_date).slice(0, 40)}" is not a date (YYYY-MM-DD).`,
        );
      const dates = tasks
        .map((task) => task.due_date)
        .filter((date): date is string => isDate(date))
        .sort();
      const answer = await forward(
        app,
        request,
        {
          method: 'POST',
          url: '/api/tracker/tasks',
          // The week the hours are filed under: the Monday of the earliest row's date (today's week without one).
          payload: { weekStart: weekOf(dates[0]), fileName: 'hours', tasks },
        },
        createTasksResponseSchema,
      );
      const { counter, messages } = answer.body;
      return { data: { counter, messages }, counter, messages, results: answer.body.results };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import { REPORT_REQUEST_MESSAGES, type CreateTasksResponse } from '@ce/contract';
import { AppError } from '../../core/errors.js';
import { originalCall } from './compat-kit.js';
import { checkCec, forward } from './forward.js';
import { encodeForm, field, readForm } from './multipart.js';

type Json = Record<string, unknown>;

/** The Monday of the week of a date (YYYY-MM-DD), the week the product files hours under. */
function mondayOf(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  const monday = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
  return monday.toISOString().slice(0, 10);
}

/** The original tracker service's calls under `prefix`: the hours file read, then the tasks created in the CRM. */
export function compatTrackerRoutes(app: FastifyInstance, prefix: string): void {
  originalCall(
    app,
    'POST',
    `${prefix}parse-logs-tam/`,
    'compatParseLogs',
    'Read an hours file (multipart: file, selectedDate); answers data and warnings',
    async (request) => {
      const form = await readForm(request);
      const upload = new FormData();
      const file = form.get('file');
      if (file instanceof Blob) upload.set('file', file, (file as File).name || 'hours');
      upload.set('selectedDate', field(form, 'selectedDate'));
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
      const body = (request.body ?? {}) as Json;
      const data = (typeof body.data === 'object' && body.data !== null ? body.data : body) as Json;
      const mission = typeof data.Mission === 'string' ? data.Mission : '';
      if (!mission) throw new AppError(400, 'mission_missing', REPORT_REQUEST_MESSAGES.missionMissing);
      if (mission.trim().toLowerCase() !== 'tam create tasks')
        throw new AppError(400, 'mission_unknown', REPORT_REQUEST_MESSAGES.missionUnknown(mission.slice(0, 100)));
      checkCec(user, typeof data.cec === 'string' ? data.cec : null);
      const tasks = (Array.isArray(data.tasks) ? (data.tasks as unknown[]) : [])
        .filter((task): task is Json => typeof task === 'object' && task !== null && !Array.isArray(task))
        .filter((task) => task.selected !== false)
        .map((task, index): Json => ({ ...task, row: Number.isInteger(task.row) ? task.row : index + 2 }));
      const dates = tasks
        .map((task) => String(task.due_date ?? ''))
        .filter((date) => /^\d{4}-\d{2}-\d{2}$/.test(date))
        .sort();
      const answer = await forward<CreateTasksResponse>(app, request, {
        method: 'POST',
        url: '/api/tracker/tasks',
        payload: { weekStart: mondayOf(dates[0] ?? new Date().toISOString().slice(0, 10)), fileName: 'hours', tasks },
      });
      const { counter, messages } = answer.body;
      return { data: { counter, messages }, counter, messages, results: answer.body.results };
    },
  );
}

import { useMutation } from '@tanstack/react-query';
import {
  TEMPLATE_FILENAME,
  TRACKER_LIMITS,
  type CreateTasksRequest,
  type CreateTasksResponse,
  type ParseResponse,
} from '@ce/contract';
import { apiBlob, apiRequest } from '../../../lib/api-client';
import { downloadBlob } from '../../../lib/download';
import { uploadForm } from '../../../lib/upload';

/** POST /api/tracker/parse (multipart, with progress): the rows of an hours file and the warnings. */
export function useParseFile() {
  return useMutation({
    mutationFn: ({
      file,
      weekStart,
      onProgress,
    }: {
      file: File;
      weekStart: string;
      onProgress: (share: number) => void;
    }) => {
      const form = new FormData();
      form.append('selectedDate', weekStart);
      form.append('file', file, file.name);
      return uploadForm<ParseResponse>('/api/tracker/parse', form, { onProgress });
    },
  });
}

/** POST /api/tracker/tasks: creation can take up to 3 minutes (spec section 9). */
export function useCreateTasks() {
  return useMutation({
    mutationFn: (request: CreateTasksRequest) =>
      apiRequest<CreateTasksResponse>('/api/tracker/tasks', {
        method: 'POST',
        body: request,
        timeoutMs: TRACKER_LIMITS.createTimeoutMs,
      }),
  });
}

export const resultsUrl = (id: string) => `/api/tracker/results/${id}`;

/** GET /api/tracker/template, saved as Task_Tracker_Template.xlsx. */
export function useDownloadTemplate() {
  return useMutation({
    mutationFn: async () => downloadBlob(TEMPLATE_FILENAME, await apiBlob('/api/tracker/template')),
  });
}

import { useMutation } from '@tanstack/react-query';
import { type ParseResponse } from '@ce/contract';
import { uploadForm } from '../../../lib/upload';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/tracker/parse (multipart, with progress): the rows of an hours file and the warnings. */
export function useParseFile(meta?: ErrorToastMeta) {
  return useMutation({
    meta,
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

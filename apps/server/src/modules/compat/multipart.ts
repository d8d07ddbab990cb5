import type { FastifyRequest } from 'fastify';
import { AppError, errorCode } from '../../core/errors.js';
import { readUploadForm, type UploadForm } from '../../core/uploads.js';

/** The upload reader's codes for a form with more parts, fields or files than its limits. */
const PAST_LIMITS = new Set(['FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT', 'FST_FILES_LIMIT']);

/**
 * An original call's multipart form, read by the product's own upload reader within `form`'s limits (those of
 * the product's upload route the call is translated onto): a form with more parts than that is refused in
 * words as soon as it passes them, never read to its end.
 */
export async function readOriginalForm(
  request: FastifyRequest,
  form: Omit<UploadForm, 'notMultipart'>,
): Promise<{ fields: Record<string, string>; files: Map<string, Buffer> }> {
  try {
    return await readUploadForm(request, {
      ...form,
      notMultipart: () => new AppError(400, 'not_multipart', 'Send this call as a multipart form.'),
    });
  } catch (error) {
    if (!PAST_LIMITS.has(errorCode(error) ?? '')) throw error;
    const { fields, files } = form.limits;
    throw new AppError(
      413,
      'too_many_parts',
      `The form has more parts than this call takes: at most ${fields} fields and ${files} ${files === 1 ? 'file' : 'files'}.`,
    );
  }
}

/** A form as the bytes and content type of a multipart body (for the product's own upload operation). */
export async function encodeForm(form: FormData): Promise<{ payload: Buffer; contentType: string }> {
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type') ?? 'multipart/form-data',
  };
}

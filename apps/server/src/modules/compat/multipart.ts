import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.js';

/** The most an original multipart call may send: three 5 MB screenshots, or a 10 MB hours file, and the form. */
export const ORIGINAL_FORM_LIMIT = 17 * 1024 * 1024;

/** Takes multipart bodies whole (up to the limit) so a call can read the original form and build the product's. */
export function bufferMultipart(app: FastifyInstance): void {
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: ORIGINAL_FORM_LIMIT },
    (_request, body, done) => done(null, body),
  );
}

/** The original form's fields and files, read by the platform's own multipart parser. */
export async function readForm(request: FastifyRequest): Promise<FormData> {
  const contentType = String(request.headers['content-type'] ?? '');
  if (!Buffer.isBuffer(request.body) || !contentType.startsWith('multipart/form-data'))
    throw new AppError(400, 'not_multipart', 'Send this call as a multipart form.');
  try {
    return await new Request('http://compat.local/', {
      method: 'POST',
      body: new Uint8Array(request.body),
      headers: { 'content-type': contentType },
    }).formData();
  } catch {
    throw new AppError(
      400,
      'malformed_upload',
      'The upload was cut short or is not a well-formed multipart form: send the file again.',
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

/** A text field of the form ('' when absent or a file). */
export const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/** The form's text fields as an object, to be read like a JSON body. */
export const textFields = (form: FormData): Record<string, string> =>
  Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

import { ApiRequestError, csrfHeaders, failure, safeJson, timeoutError } from './api-client';

export interface UploadOptions {
  /** Called as the body goes out, with the share sent so far (0 to 1). */
  onProgress?: (share: number) => void;
  signal?: AbortSignal;
  /** Give up after this long (0: never). */
  timeoutMs?: number;
}

/**
 * Sends a multipart form to the server and reports the upload's progress (fetch cannot), with the same
 * cookies, anti-forgery header and error shape as every other call.
 */
export async function uploadForm<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const headers = await csrfHeaders();
  const { status, statusText, text } = await new Promise<{ status: number; statusText: string; text: string }>(
    (resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open('POST', path);
      request.withCredentials = true;
      request.timeout = options.timeoutMs ?? 0;
      request.ontimeout = () => reject(timeoutError(options.timeoutMs ?? 0));
      request.setRequestHeader('accept', 'application/json');
      for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
      request.upload.onprogress = (event) => {
        if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
      };
      request.onload = () =>
        resolve({ status: request.status, statusText: request.statusText, text: request.responseText });
      request.onerror = () =>
        reject(
          new ApiRequestError(0, 'network_error', 'Cannot reach the server. Check your connection and try again.'),
        );
      request.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
      options.signal?.addEventListener('abort', () => request.abort(), { once: true });
      request.send(form);
    },
  );
  const payload = text ? safeJson(text) : undefined;
  if (status >= 200 && status < 300) return payload as T;
  throw await failure(status, statusText, payload);
}

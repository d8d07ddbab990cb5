import { afterEach, describe, expect, it } from 'vitest';
import { toast, type Toast } from '../components/ui/toast-store';
import { ApiRequestError } from './api-client';
import { BULK_MESSAGES, TARGET_TOKEN_REFUSED } from '@ce/contract';
import { customerTokenErrors, SHOWN_IN_PLACE, type ErrorToastMeta } from './error-toasts';
import { createQueryClient } from './query-client';

/** Runs one failing mutation through the app's query client and answers the toasts it raised. */
async function toastsOfFailure(error: unknown, meta?: ErrorToastMeta): Promise<Toast[]> {
  const before = new Set(toast.getSnapshot().map((shown) => shown.id));
  const client = createQueryClient();
  const mutation = client.getMutationCache().build(client, {
    mutationFn: () => Promise.reject(error),
    ...(meta ? { meta } : {}),
  });
  await mutation.execute(undefined).catch(() => undefined);
  return toast.getSnapshot().filter((shown) => !before.has(shown.id));
}

describe('error toasts, raised in one place', () => {
  afterEach(() => {
    for (const shown of toast.getSnapshot()) toast.dismiss(shown.id);
  });

  it("says a failed call's server message once, with nothing from the feature", async () => {
    const shown = await toastsOfFailure(new ApiRequestError(409, 'conflict', 'This push is already under way'));
    expect(shown.map(({ type, message }) => [type, message])).toEqual([['error', 'This push is already under way']]);
  });

  it("uses a feature's own words and title, and stays silent where the form shows the failure itself", async () => {
    const worded = await toastsOfFailure(new ApiRequestError(401, 'unauthorized', 'Invalid token'), {
      errorMessage: () => ({ text: 'Invalid OAuth token.', title: 'Unauthorized' }),
    });
    expect(worded.map(({ message, title }) => [message, title])).toEqual([['Invalid OAuth token.', 'Unauthorized']]);
    expect(await toastsOfFailure(new ApiRequestError(400, 'bad', 'Wrong password'), SHOWN_IN_PLACE)).toEqual([]);
  });

  it("says whose token the platform refused: the customer's in the spec's words, a second organization's in its own", async () => {
    const meta = customerTokenErrors('The plan could not be made');
    const customer = await toastsOfFailure(new ApiRequestError(401, 'invalid_platform_token', 'x'), meta);
    expect(customer.map(({ message, title }) => [message, title])).toEqual([
      [BULK_MESSAGES.invalidToken, BULK_MESSAGES.invalidTokenTitle],
    ]);
    const target = await toastsOfFailure(new ApiRequestError(401, 'invalid_target_token', TARGET_TOKEN_REFUSED), meta);
    expect(target.map(({ message }) => message)).toEqual([TARGET_TOKEN_REFUSED]);
  });
});

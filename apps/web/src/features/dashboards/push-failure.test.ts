import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../lib/api-client';
import { pushFailureMessage } from './components/push-dialog';

describe('what a failed push says (spec section 8)', () => {
  it('names the token on 401 and 403, repeats the server, and falls back to the general message', () => {
    expect(pushFailureMessage(new ApiRequestError(401, 'invalid_platform_token', 'x'))).toBe(
      'Unauthorized: Please check your OAuth token',
    );
    expect(pushFailureMessage(new ApiRequestError(403, 'platform_forbidden', 'x'))).toBe(
      'Unauthorized: Please check your OAuth token',
    );
    expect(pushFailureMessage(new ApiRequestError(502, 'platform_error', 'The platform is unavailable'))).toBe(
      'Error: The platform is unavailable',
    );
    expect(pushFailureMessage(new ApiRequestError(500, 'internal', 'Internal server error'))).toBe(
      'Error deploying dashboard',
    );
    expect(pushFailureMessage(new Error('boom'))).toBe('Error deploying dashboard');
  });
});

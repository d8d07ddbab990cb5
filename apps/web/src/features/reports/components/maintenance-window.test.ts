import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../../lib/api-client';
import { maintenanceFailure } from './maintenance-window';

describe('maintenance report failure texts (spec section 8)', () => {
  it.each([
    [0, 'Cannot connect to server. This could be a CORS issue or network problem.'],
    [504, 'Request timed out. The server is taking too long to respond.'],
    [404, 'The maintenance window report endpoint was not found (404).'],
    [500, 'Server internal error (500). Check the server logs for details.'],
    [502, 'The server is temporarily unavailable. Please try again later.'],
    [503, 'The server is temporarily unavailable. Please try again later.'],
  ])('status %i', (status, text) => {
    expect(maintenanceFailure(new ApiRequestError(status, 'x', 'ignored'))).toBe(text);
  });

  it('shows the error message otherwise, and a default for anything else', () => {
    expect(maintenanceFailure(new ApiRequestError(400, 'bad', 'Please select an organization'))).toBe(
      'Please select an organization',
    );
    expect(maintenanceFailure(new Error('boom'))).toBe('Failed to send Maintenance Window Report request');
  });
});

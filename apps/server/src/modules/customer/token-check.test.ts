import { describe, expect, it } from 'vitest';
import { PlatformError, type PlatformClient } from '@ce/platform-client';
import { CustomerService } from './customer.service.js';

/** A platform whose account groups read answers `status`. */
const refusing = (status: number) =>
  ({
    as: () => ({ accountGroups: { list: () => Promise.reject(new PlatformError(status, 'refused')) } }),
  }) as unknown as PlatformClient;

describe("the switcher's token check", () => {
  it('says a token the platform knows but refuses for the organization (403) in the spec’s words', async () => {
    await expect(
      new CustomerService(refusing(403)).checkToken('f537f4ac-2921-3199-bbab-d5a43f1c2b60'),
    ).rejects.toMatchObject({
      statusCode: 403,
      code: 'platform_forbidden',
      message:
        'Forbidden - insufficient permissions: the platform accepted the token but refused it for this organization (its user may not use the API there).',
    });
  });

  it("takes a token of the platform's own shape that it refuses for a revoked or expired one", async () => {
    await expect(
      new CustomerService(refusing(401)).checkToken('f537f4ac-2921-3199-bbab-d5a43f1c2b60'),
    ).rejects.toMatchObject({
      statusCode: 401,
      message: expect.stringContaining('it was revoked or has expired'),
    });
    await expect(new CustomerService(refusing(401)).checkToken('hello')).rejects.toMatchObject({
      statusCode: 401,
      message: expect.stringContaining('This is not a token of the platform'),
    });
  });
});

import { z } from 'zod';
import { ENDPOINT_SCHEDULED_TYPES, PlatformError, type EndpointScheduledType } from '@ce/platform-client';
import { ENDPOINT_CREATE, ENDPOINT_PATCH, endpointTestKind } from './endpoint-test.js';
import { pick, type BackupKindDescriptor, type Target } from './kind.js';

/** The test's type (its URL names it): one the platform serves, or refused in the platform client's words. */
function scheduledType({ variant = 'agent-to-server' }: Target): EndpointScheduledType {
  const type = ENDPOINT_SCHEDULED_TYPES.find((known) => known === variant);
  if (!type) throw new PlatformError(400, `"${variant}" is not an endpoint test type the platform knows.`);
  return type;
}

/** Endpoint scheduled tests: their type names the URL their writes go to (the write's variant). */
export const endpointScheduledTest: BackupKindDescriptor<'endpoint-scheduled-test'> = endpointTestKind(
  'endpoint-scheduled-test',
  {
    folder: 'endpoint-scheduled-tests',
    shape: { type: z.enum(ENDPOINT_SCHEDULED_TYPES, { error: `must be ${ENDPOINT_SCHEDULED_TYPES.join(' or ')}` }) },
    variant: true,
    platform: {
      // A POST creates a test enabled: one the backup had disabled is then disabled (a PATCH).
      create: async (session, target, body, aid) => {
        const created = await session.endpointTests.createScheduled(
          scheduledType(target),
          pick(body, ENDPOINT_CREATE),
          aid,
        );
        if (body.isEnabled === false)
          await session.endpointTests.updateScheduled(scheduledType(target), created.testId, { isEnabled: false }, aid);
        return created.testId;
      },
      update: (session, target, id, body, aid) =>
        session.endpointTests.updateScheduled(scheduledType(target), id, pick(body, ENDPOINT_PATCH), aid),
      delete: (session, target, id, aid) => session.endpointTests.deleteScheduled(scheduledType(target), id, aid),
      list: async (session, target, aid) =>
        (await session.endpointTests.listScheduled(aid))
          .filter((test) => test.type === (target.variant ?? 'agent-to-server'))
          .map((test) => ({ id: test.testId, name: test.testName })),
    },
  },
);

import { ENDPOINT_CREATE, ENDPOINT_PATCH, endpointTestKind } from './endpoint-test.js';
import { pick, type BackupKindDescriptor } from './kind.js';

/** Endpoint dynamic tests: they follow an application (Webex, Zoom) wherever its users are. */
export const endpointDynamicTest: BackupKindDescriptor<'endpoint-dynamic-test'> = endpointTestKind(
  'endpoint-dynamic-test',
  {
    folder: 'endpoint-dynamic-tests',
    shape: {},
    variant: false,
    platform: {
      create: async (session, _target, body, aid) => {
        const created = await session.endpointTests.createDynamic(pick(body, ENDPOINT_CREATE), aid);
        if (body.isEnabled === false)
          await session.endpointTests.updateDynamic(created.testId, { isEnabled: false }, aid);
        return created.testId;
      },
      update: (session, _target, id, body, aid) =>
        session.endpointTests.updateDynamic(id, pick(body, ENDPOINT_PATCH), aid),
      delete: (session, _target, id, aid) => session.endpointTests.deleteDynamic(id, aid),
      list: async (session, _target, aid) =>
        (await session.endpointTests.listDynamic(aid)).map((test) => ({ id: test.testId, name: test.testName })),
    },
  },
);

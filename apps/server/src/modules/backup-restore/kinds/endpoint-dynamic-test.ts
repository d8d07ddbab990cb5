import { z } from 'zod';
import {
  ENDPOINT_CREATE,
  ENDPOINT_PATCH,
  ENDPOINT_TEST_SERVER_FIELDS,
  endpointTestRestore,
  readEndpointTestKind,
  selectorShape,
} from './endpoint-test.js';
import { pick, type BackupKindDescriptor } from './kind.js';

/** Endpoint dynamic tests: they follow an application (Webex, Zoom) wherever its users are. */
export const endpointDynamicTest: BackupKindDescriptor<'endpoint-dynamic-test'> = {
  kind: 'endpoint-dynamic-test',
  folder: 'endpoint-dynamic-tests',
  serverFields: ENDPOINT_TEST_SERVER_FIELDS,
  configShape: z.looseObject({ agentSelectorConfig: selectorShape }),
  read: (context) => readEndpointTestKind(context, 'endpoint-dynamic-test'),
  restore: endpointTestRestore(false, {
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
  }),
};

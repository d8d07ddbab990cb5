import { z } from 'zod';
import { eachDetail, namesField, namingTests, testKeysOf, objects, split, type BackupKindDescriptor } from './kind.js';

/** Alert suppression windows: the tests a window silences by key in `config` (by id in `server`). */
export const suppressionWindow: BackupKindDescriptor<'suppression-window'> = {
  kind: 'suppression-window',
  folder: 'suppression-windows',
  serverFields: ['alertSuppressionWindowId'],
  configShape: z.looseObject({ tests: namesField }),
  async read({ session, aid, emit, testKeys }) {
    const windows = await session.alertSuppressionWindows.list(aid);
    await eachDetail(windows, async (listed) => {
      const window = await session.alertSuppressionWindows.get(listed.alertSuppressionWindowId, aid);
      const { tests: windowTests, ...rest } = window;
      const parts = split(rest, suppressionWindow.serverFields);
      const testIds = objects(windowTests).map((windowTest) => String(windowTest.testId));
      parts.config.tests = testKeysOf(testIds, testKeys);
      parts.server.testIds = testIds;
      emit({ kind: 'suppression-window', key: window.name, name: window.name, ...parts });
    });
  },
  restore: {
    phase: 1,
    ...namingTests,
    nameOf: (body) => String(body.name),
    undoesUpdate: true,
    platform: {
      create: async (session, _target, body, aid) =>
        (await session.alertSuppressionWindows.create(body, aid)).alertSuppressionWindowId,
      update: (session, _target, id, body, aid) => session.alertSuppressionWindows.update(id, body, aid),
      delete: (session, _target, id, aid) => session.alertSuppressionWindows.delete(id, aid),
      list: async (session, _target, aid) =>
        (await session.alertSuppressionWindows.list(aid)).map((window) => ({
          id: window.alertSuppressionWindowId,
          name: window.name,
        })),
    },
  },
};

import { z } from 'zod';
import { split, type BackupKindDescriptor } from './kind.js';

/** Endpoint labels (which endpoint agents a test runs on), by name: recorded for the endpoint tests that name them. */
export const endpointLabel: BackupKindDescriptor<'endpoint-label'> = {
  kind: 'endpoint-label',
  folder: 'endpoint-labels',
  serverFields: ['id', 'labelId'],
  configShape: z.looseObject({}),
  async read({ session, aid, emit, labelNames }) {
    for await (const label of session.endpointLabels.list(aid)) {
      const parts = split(label, endpointLabel.serverFields);
      const name = String(label.name ?? label.id);
      labelNames.set(label.id, name);
      emit({ kind: 'endpoint-label', key: name, name, ...parts });
    }
  },
  restore: {
    phase: 0,
    write: ({ config }) => ({ body: config }),
    nameOf: (body) => String(body.name),
    undoesUpdate: true,
    platform: {
      create: async (session, _target, body, aid) => (await session.endpointLabels.create(body, aid)).id,
      update: (session, _target, id, body, aid) => session.endpointLabels.update(id, body, aid),
      delete: (session, _target, id, aid) => session.endpointLabels.delete(id, aid),
      list: async (session, _target, aid) => {
        const labels: { id: string; name: string }[] = [];
        for await (const label of session.endpointLabels.list(aid)) labels.push({ id: label.id, name: label.name });
        return labels;
      },
    },
  },
};

import { expect } from 'vitest';
import type { PlatformSession } from '../src/index.js';

/** The document's operations for endpoint labels and endpoint tests, and a tag's deletion. */
export const ENDPOINT_WRITE_OPERATIONS = [
  'POST /endpoint/labels',
  'PATCH /endpoint/labels/{id}',
  'DELETE /endpoint/labels/{id}',
  ...(['agent-to-server', 'http-server'] as const).flatMap((type) => [
    `POST /endpoint/tests/scheduled-tests/${type}`,
    `PATCH /endpoint/tests/scheduled-tests/${type}/{testId}`,
    `DELETE /endpoint/tests/scheduled-tests/${type}/{testId}`,
  ]),
  'POST /endpoint/tests/dynamic-tests/agent-to-server',
  'PATCH /endpoint/tests/dynamic-tests/agent-to-server/{testId}',
  'DELETE /endpoint/tests/dynamic-tests/agent-to-server/{testId}',
  'DELETE /tags/{id}',
];

/** Creates, changes and deletes each, checking what the sandbox keeps; the caller records the exchanges. */
export async function exerciseEndpointWrites(admin: PlatformSession, aid: string): Promise<void> {
  const label = await admin.endpointLabels.create(
    { name: 'Contract label', color: '#ff3333', matchType: 'or', filters: [{ key: 'platform', values: ['mac'] }] },
    aid,
  );
  await admin.endpointLabels.update(label.id, { name: 'Contract label, renamed' }, aid);
  const labelled = await admin.endpointTests.createScheduled(
    'agent-to-server',
    {
      testName: 'Contract endpoint network',
      server: 'example.com',
      interval: 300,
      protocol: 'tcp',
      agentSelectorType: 'agent-labels',
      endpointAgentLabels: [label.id],
      maxMachines: 10,
    },
    aid,
  );
  expect(labelled.agentSelectorConfig).toMatchObject({
    agentSelectorType: 'agent-labels',
    endpointAgentLabels: [label.id],
  });
  await admin.endpointTests.updateScheduled(
    'agent-to-server',
    labelled.testId,
    { interval: 600, isEnabled: false },
    aid,
  );
  const http = await admin.endpointTests.createScheduled(
    'http-server',
    { testName: 'Contract endpoint HTTP', url: 'https://example.com/', interval: 60, agentSelectorType: 'all-agents' },
    aid,
  );
  await admin.endpointTests.updateScheduled(
    'http-server',
    http.testId,
    { testName: 'Contract endpoint HTTP, renamed' },
    aid,
  );
  const listed = await admin.endpointTests.listScheduled(aid);
  expect(listed.find((test) => test.testId === labelled.testId)).toMatchObject({ interval: 600, isEnabled: false });
  expect(listed.find((test) => test.testId === http.testId)?.testName).toBe('Contract endpoint HTTP, renamed');
  const dynamic = await admin.endpointTests.createDynamic(
    { testName: 'Contract Zoom', application: 'zoom', interval: 300, agentSelectorType: 'all-agents' },
    aid,
  );
  await admin.endpointTests.updateDynamic(dynamic.testId, { interval: 600 }, aid);
  await expect(
    admin.endpointTests.createDynamic({ testName: 'No app', application: 'fax' }, aid),
  ).rejects.toMatchObject({
    status: 400,
  });
  await admin.endpointTests.deleteDynamic(dynamic.testId, aid);
  await admin.endpointTests.deleteScheduled('agent-to-server', labelled.testId, aid);
  await admin.endpointTests.deleteScheduled('http-server', http.testId, aid);
  await admin.endpointLabels.delete(label.id, aid);
  expect((await admin.endpointTests.listScheduled(aid)).map((test) => test.testId)).not.toContain(http.testId);
  const names: string[] = [];
  for await (const each of admin.endpointLabels.list(aid)) names.push(each.name);
  expect(names).not.toContain('Contract label, renamed');

  const tag = await admin.tags.create({ key: 'contract', value: 'deleted', objectType: 'test' }, aid);
  await admin.tags.delete(tag.id, aid);
  expect((await admin.tags.list(aid)).map((each) => each.id)).not.toContain(tag.id);
}

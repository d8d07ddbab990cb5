import { describe, expect, it } from 'vitest';
import { unzipVerified, writeZip } from '../../core/zip.js';
import { readArchive } from './archive-reader.js';
import { BACKUP_SCHEMA_VERSION, canonicalJson, writeArchive, type BackupItem } from './archive.js';

const source = {
  organization: { id: '9000', name: 'Acme Corporation' },
  accountGroup: { aid: '1001', accountGroupName: 'Acme - Production' },
  createdAt: '2026-11-25T10:00:00.000Z',
  createdBy: 'tam@demo.local',
};
const items: BackupItem[] = [
  {
    kind: 'test',
    key: 'http-server: Portal',
    name: 'Portal',
    config: { testName: 'Portal', url: 'https://portal.example.com', agents: ['London'], interval: 300 },
    server: { testId: '281', createdDate: '2026-01-01T00:00:00Z', _links: { self: { href: 'x' } } },
    masked: [],
  },
  {
    kind: 'test',
    key: 'http-server: Portal/Login?',
    name: 'Portal/Login?',
    config: { testName: 'Portal/Login?', password: null },
    server: { testId: '282' },
    masked: ['password'],
  },
  {
    kind: 'alert-rule',
    key: 'Latency',
    name: 'Latency',
    config: { ruleName: 'Latency' },
    server: { ruleId: '7' },
    masked: [],
  },
];

/** The archive's files by name, to tamper with. */
const filesOf = (bytes: Buffer) => {
  const files: { name: string; content: Buffer }[] = [];
  unzipVerified(bytes, { maxEntries: 100, maxUnzippedBytes: 1e7 }, (entry, content) =>
    files.push({ name: entry.name, content }),
  );
  return files;
};
const refusal = async (bytes: Buffer) => {
  try {
    await readArchive(bytes);
    return 'read';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('the backup archive', () => {
  it('round-trips: one file per item, keys sorted, server-managed fields apart, a manifest with checksums', async () => {
    const { bytes, manifest } = writeArchive(source, items);
    const read = await readArchive(bytes);
    expect(read.manifest).toEqual(manifest);
    expect(read.items).toEqual(items);
    expect(manifest.counts).toMatchObject({ test: 2, 'alert-rule': 1, dashboard: 0 });
    const names = filesOf(bytes).map((file) => file.name);
    expect(names).toEqual([
      'config/tests/http-server- Portal.json',
      'server/tests/http-server- Portal.json',
      'config/tests/http-server- Portal-Login.json',
      'server/tests/http-server- Portal-Login.json',
      'config/alert-rules/Latency.json',
      'server/alert-rules/Latency.json',
      'manifest.json',
    ]);
    expect(filesOf(bytes)[0]?.content.toString('utf8')).toBe(
      '{\n  "agents": [\n    "London"\n  ],\n  "interval": 300,\n  "testName": "Portal",\n  "url": "https://portal.example.com"\n}\n',
    );
    expect(manifest.entries[2]).toMatchObject({ part: 'config', masked: ['password'] });
    // The same backup gives the same bytes: a file a team can keep in git.
    expect(writeArchive(source, items).bytes.equals(bytes)).toBe(true);
  });

  it('refuses an archive changed after it was made, or not made by this product, saying what is wrong', async () => {
    const files = filesOf(writeArchive(source, items).bytes);
    const rezip = (change: (list: typeof files) => typeof files) =>
      writeZip(change(files.map((file) => ({ ...file }))));
    expect(
      await refusal(
        rezip((list) =>
          list.map((file, index) => (index === 0 ? { ...file, content: Buffer.from('{"testName":"Evil"}') } : file)),
        ),
      ),
    ).toBe(
      'config/tests/http-server- Portal.json does not match its checksum: the archive was changed after it was made.',
    );
    expect(
      await refusal(rezip((list) => [...list, { name: 'config/tests/extra.json', content: Buffer.from('{}') }])),
    ).toBe('The archive holds files its manifest does not list: config/tests/extra.json.');
    expect(await refusal(rezip((list) => list.filter((file) => file.name !== 'manifest.json')))).toBe(
      'This zip is not a backup archive: it holds no manifest.json.',
    );
    expect(await refusal(rezip((list) => list.filter((file) => file.name !== 'config/alert-rules/Latency.json')))).toBe(
      'The archive lacks config/alert-rules/Latency.json, which its manifest lists.',
    );
    const manifest = JSON.parse(files.at(-1)?.content.toString('utf8') ?? '{}');
    const withManifest = (value: unknown) =>
      rezip((list) =>
        list.map((file) =>
          file.name === 'manifest.json' ? { ...file, content: Buffer.from(canonicalJson(value)) } : file,
        ),
      );
    expect(await refusal(withManifest({ ...manifest, schemaVersion: BACKUP_SCHEMA_VERSION + 1 }))).toBe(
      `This backup was made by a newer version (schema ${BACKUP_SCHEMA_VERSION + 1}); this version reads schema ${BACKUP_SCHEMA_VERSION}.`,
    );
    const traversal = {
      ...manifest,
      entries: [...manifest.entries, { ...manifest.entries[0], path: 'config/../../etc/passwd.json' }],
    };
    expect(await refusal(withManifest(traversal))).toBe(
      "The manifest names a file outside the backup's folders: config/../../etc/passwd.json.",
    );
    expect(await refusal(withManifest({ ...manifest, counts: { ...manifest.counts, test: 5 } }))).toBe(
      "The manifest's count of test items does not match the files.",
    );
    expect(await refusal(withManifest({ ...manifest, format: 'something-else' }))).toMatch(
      /^The backup manifest is not valid: format/,
    );
  });

  it('refuses what is not a whole zip under the upload rules', async () => {
    const { bytes } = writeArchive(source, items);
    expect(await refusal(Buffer.from('PK\u0003\u0004 and then nothing'))).toBe(
      'This file is not a backup archive, or it is damaged: it is not a whole zip file.',
    );
    expect(await refusal(bytes.subarray(0, bytes.length - 10))).toBe(
      'This file is not a backup archive, or it is damaged: it is not a whole zip file.',
    );
    // A zip bomb past the total size is refused in the integration tier (backups-hostile.int.test.ts).
  });
});

import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { diskState } from './disk-space.js';

const withFree = (bytes: number) => () => ({ bavail: bytes / 4096, bsize: 4096 });

describe("the embedded database's disk, for /readyz", () => {
  it('is ok with room left, and full in words when less than the minimum is free', () => {
    expect(diskState('/data', 32 * 1024 * 1024, withFree(1024 * 1024 * 1024))).toBe('ok');
    expect(diskState('/data', 32 * 1024 * 1024, withFree(12 * 1024 * 1024))).toBe('full: 12 MB free');
  });

  it('reads the real file system of a folder', () => {
    expect(diskState(os.tmpdir(), 1)).toBe('ok');
    expect(diskState('/no/such/folder/anywhere', 1)).toBe('unknown');
  });
});

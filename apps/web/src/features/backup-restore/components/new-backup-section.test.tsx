import { describe, expect, it } from 'vitest';
import { aBackup } from '../backup-fixtures';
import { backupHref, backupStartToast } from './new-backup-section';

const backup = (id: string, accountGroupName: string) =>
  aBackup({
    id,
    aid: id,
    accountGroupName,
    status: 'queued',
    counts: null,
    items: null,
    size: null,
    checksum: null,
    finishedAt: null,
  });

describe('the toast a backup starts with', () => {
  it('says what it always said, and opens the backup it started', () => {
    expect(backupStartToast([backup('b1', 'Acme - Staging')])).toEqual({
      message: 'Backing up 1 account group',
      link: { to: '/home/tools/backup-restore?backup=b1', label: 'Open the backup' },
    });
  });

  it('names the backup it opens when several started', () => {
    expect(backupStartToast([backup('b1', 'Acme - Staging'), backup('b2', 'Acme - EMEA')])).toEqual({
      message: 'Backing up 2 account groups',
      link: { to: '/home/tools/backup-restore?backup=b1', label: 'Open the backup of Acme - Staging' },
    });
  });

  it("opens a backup at the Backup & Restore page's address for it", () => {
    expect(backupHref('b 1')).toBe('/home/tools/backup-restore?backup=b%201');
  });
});

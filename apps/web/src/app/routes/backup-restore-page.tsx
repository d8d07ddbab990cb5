import { BackupRestoreTool } from '../../features/backup-restore/components/backup-restore-tool';

export function BackupRestorePage() {
  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Backup &amp; Restore</h1>
        <p className="text-slate-600">
          Saves an account group&apos;s configuration (tests, alert rules, suppression windows, dashboards, tags and
          endpoint settings) as an archive you can keep and diff, shows what changed since, and puts back what you pick,
          with a plan first and an undo after.
        </p>
      </div>
      <BackupRestoreTool />
    </section>
  );
}

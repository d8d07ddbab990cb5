import { AlertsMigrationTool } from '../../features/alerts-migration/components/alerts-migration-tool';

export function AlertsMigrationPage() {
  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Alerts Migration</h1>
        <p className="text-slate-600">
          Copies or moves alert rules from one account group into others, of this organization or another. You see
          exactly what will change before anything is written; the server carries the migration out at the
          platform&apos;s pace, each change once, and it can be undone.
        </p>
      </div>
      <AlertsMigrationTool />
    </section>
  );
}

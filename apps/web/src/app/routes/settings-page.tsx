import { useSession } from '../../lib/session';

/** Settings: the profile for now; password, sessions and user management come with the identity work. */
export function SettingsPage() {
  const { data: user } = useSession();
  if (!user) return null;
  return (
    <section className="max-w-xl">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <h2 className="mt-6 text-lg font-medium">Profile</h2>
      <dl className="mt-3 grid grid-cols-[8rem_1fr] gap-y-2 text-sm">
        <dt className="text-slate-500">Name</dt>
        <dd>{user.name ?? '—'}</dd>
        <dt className="text-slate-500">Email</dt>
        <dd>{user.email}</dd>
        <dt className="text-slate-500">Role</dt>
        <dd data-testid="profile-role">{user.role}</dd>
      </dl>
    </section>
  );
}

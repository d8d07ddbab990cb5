import { AuditLogSection, UsersSection } from '../../features/settings/components/admin-sections';
import { AllApiTokensSection, ApiTokensSection } from '../../features/settings/components/api-tokens-section';
import {
  ChangePasswordSection,
  ProfileSection,
  SessionsSection,
} from '../../features/settings/components/account-sections';
import { userCan } from '../../lib/permissions';
import { useSession } from '../../lib/session';

/** Settings: profile, password, sessions and API tokens for everyone; users, all tokens and the audit log for Super Users. */
export function SettingsPage() {
  const { data: user } = useSession();
  if (!user) return null;
  const canManage = userCan(user, 'manageUsers');
  return (
    <div className="max-w-4xl space-y-5">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <ProfileSection user={user} />
      <ChangePasswordSection />
      <SessionsSection />
      <ApiTokensSection />
      {canManage && <UsersSection currentUser={user} />}
      {canManage && <AllApiTokensSection />}
      {canManage && <AuditLogSection />}
    </div>
  );
}

import type { ReactNode } from 'react';
import { NavLink, Navigate, useParams } from 'react-router';
import { PATHS, type SessionUser } from '@ce/contract';
import { AuditLogSection, UsersSection } from '../../features/settings/components/admin-sections';
import { AllApiTokensSection, ApiTokensSection } from '../../features/settings/components/api-tokens-section';
import {
  ChangePasswordSection,
  ProfileSection,
  SessionsSection,
} from '../../features/settings/components/account-sections';
import { userCan } from '../../lib/permissions';
import { useSession } from '../../lib/session';

interface SettingsSection {
  /** Its route: /home/settings/{id}. */
  id: string;
  label: string;
  /** Super Users only. */
  manage?: boolean;
  render(user: SessionUser): ReactNode;
}

const SECTIONS: readonly SettingsSection[] = [
  { id: 'profile', label: 'Profile', render: (user) => <ProfileSection user={user} /> },
  { id: 'password', label: 'Password', render: () => <ChangePasswordSection /> },
  { id: 'sessions', label: 'Sessions', render: () => <SessionsSection /> },
  { id: 'api-tokens', label: 'API tokens', render: () => <ApiTokensSection /> },
  { id: 'users', label: 'Users', manage: true, render: (user) => <UsersSection currentUser={user} /> },
  { id: 'all-api-tokens', label: 'All API tokens', manage: true, render: () => <AllApiTokensSection /> },
  { id: 'audit-log', label: 'Audit log', manage: true, render: () => <AuditLogSection /> },
];

const chip = ({ isActive }: { isActive: boolean }) =>
  `block rounded-full border px-3 py-1 text-sm whitespace-nowrap ${
    isActive
      ? 'border-brand-600 bg-brand-50 font-medium text-brand-800'
      : 'border-slate-300 text-slate-700 hover:bg-slate-100'
  }`;

/**
 * Settings: profile, password, sessions and API tokens for everyone; users, all tokens and the audit log for Super
 * Users. /home/settings shows every section; each also has a route of its own (/home/settings/{section}), one
 * screen on a phone.
 */
export function SettingsPage() {
  const { data: user } = useSession();
  const { section: chosen } = useParams();
  if (!user) return null;
  const sections = SECTIONS.filter((section) => !section.manage || userCan(user, 'manageUsers'));
  const shown = chosen === undefined ? sections : sections.filter((section) => section.id === chosen);
  if (shown.length === 0) return <Navigate to={PATHS.settings} replace />;
  return (
    <div className="max-w-4xl space-y-5">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <nav aria-label="Settings sections">
        <ul className="flex flex-wrap gap-2">
          <li>
            <NavLink to={PATHS.settings} end className={chip}>
              All
            </NavLink>
          </li>
          {sections.map((section) => (
            <li key={section.id}>
              <NavLink to={`${PATHS.settings}/${section.id}`} className={chip}>
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {shown.map((section) => (
        <div key={section.id}>{section.render(user)}</div>
      ))}
    </div>
  );
}

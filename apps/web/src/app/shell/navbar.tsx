import { ROLE_BADGES, type SessionUser } from '@ce/contract';
import { Logo } from '../../components/ui/logo';

export interface NavbarProps {
  user: SessionUser;
  isLoggingOut: boolean;
  onLogout: () => void;
  onToggleMenu: () => void;
  isMenuOpen: boolean;
}

const BADGE_TONES = {
  purple: 'bg-purple-100 text-purple-800',
  sky: 'bg-sky-100 text-sky-800',
  amber: 'bg-amber-100 text-amber-800',
} as const;

export function Navbar({ user, isLoggingOut, onLogout, onToggleMenu, isMenuOpen }: NavbarProps) {
  const badge = ROLE_BADGES[user.role];
  return (
    <header className="flex h-14 shrink-0 items-center gap-3 border-b border-slate-200 bg-white px-4">
      <button
        type="button"
        onClick={onToggleMenu}
        aria-label={isMenuOpen ? 'Collapse menu' : 'Expand menu'}
        aria-expanded={isMenuOpen}
        aria-controls="side-menu"
        className="rounded p-1.5 text-slate-600 hover:bg-slate-100"
      >
        <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
          <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      <Logo />
      <span className="font-semibold text-brand-800">CE Toolkit</span>
      <div className="ml-auto flex items-center gap-3">
        <span className="text-sm text-slate-700" data-testid="welcome">
          Welcome, <span className="font-medium">{user.name || user.email}</span>
        </span>
        {badge && (
          <span
            data-testid="role-badge"
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE_TONES[badge]}`}
          >
            {user.role}
          </span>
        )}
        <button
          type="button"
          onClick={onLogout}
          disabled={isLoggingOut}
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-50"
        >
          {isLoggingOut ? 'Logging out…' : 'Logout'}
        </button>
      </div>
    </header>
  );
}

import { LogOut } from 'lucide-react';
import { ROLE_BADGES, type SessionUser } from '@ce/contract';
import { Logo } from '../../components/ui/logo';
import { CustomerSwitcher } from '../../features/customers/components/customer-switcher';
import { FeedbackButton } from '../../features/feedback/components/feedback-dialog';

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
    // One line at every width: below 768 px the word "Welcome" gives way, below 640 px the person's name too.
    <header className="flex h-14 shrink-0 items-center gap-2 border-b border-slate-200 bg-white px-3 md:gap-3 md:px-4">
      <button
        type="button"
        onClick={onToggleMenu}
        aria-label={isMenuOpen ? 'Collapse menu' : 'Expand menu'}
        aria-expanded={isMenuOpen}
        aria-controls="side-menu"
        className="shrink-0 rounded p-1.5 text-slate-600 hover:bg-slate-100"
      >
        <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
          <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      {/* Below 640 px the chosen customer's name needs the logo's room: the menu button and the page's title remain. */}
      <span className="shrink-0 max-sm:hidden">
        <Logo />
      </span>
      {/* Below 640 px the product is named for assistive technology only: the chosen customer needs the room. */}
      <span
        className="min-w-0 truncate whitespace-nowrap font-semibold text-brand-800 max-sm:sr-only"
        data-testid="product-name"
      >
        CE Toolkit
      </span>
      <div className="ml-auto flex min-w-0 items-center gap-2 md:gap-3">
        {/* Below 640 px the signed-in person's own name gives way to the customer's (Settings names them). */}
        <span className="min-w-0 truncate whitespace-nowrap text-sm text-slate-700 max-sm:hidden" data-testid="welcome">
          <span className="hidden md:inline">Welcome, </span>
          <span className="font-medium">{user.name || user.email}</span>
        </span>
        {badge && (
          <span
            data-testid="role-badge"
            className={`shrink-0 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE_TONES[badge]}`}
          >
            {user.role}
          </span>
        )}
        <CustomerSwitcher />
        <FeedbackButton />
        <button
          type="button"
          onClick={onLogout}
          disabled={isLoggingOut}
          className="flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-md border border-slate-300 px-2 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-50 sm:px-3"
        >
          {/* Below 640 px the door alone, its words kept for assistive technology. */}
          <LogOut aria-hidden="true" className="h-4 w-4 sm:hidden" />
          <span className="max-sm:sr-only">{isLoggingOut ? 'Logging out…' : 'Logout'}</span>
        </button>
      </div>
    </header>
  );
}

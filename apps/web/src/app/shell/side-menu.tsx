import { ChevronDown, ChevronRight, Circle, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { BOTTOM_LINKS, MENU_GROUPS, TOP_LINKS, type MenuGroup, type MenuLink, type SessionUser } from '@ce/contract';
import { useUnseenCount } from '../../features/notifications/components/work-notifier';
import { userCan } from '../../lib/permissions';
import { GROUP_ICONS, LINK_ICONS } from './menu-icons';

export interface SideMenuProps {
  user: SessionUser;
  isOpen: boolean;
  /** Open over the page (a phone's width): it slides over the page instead of narrowing it. */
  overlay?: boolean;
  onRequestOpen: () => void;
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `group relative flex items-center gap-3 rounded-md px-3 py-2 text-sm ${
    isActive ? 'bg-brand-100 font-medium text-brand-800' : 'text-slate-700 hover:bg-slate-100'
  }`;

function Icon({ icon: Shape = Circle }: { icon?: LucideIcon }) {
  return <Shape aria-hidden="true" className="h-5 w-5 shrink-0" />;
}

/** The name beside a collapsed menu's icon, on hover and on keyboard focus (the link is named either way). */
function Tooltip({ text }: { text: string }) {
  return (
    <span
      aria-hidden="true"
      className="pointer-events-none absolute top-1/2 left-full z-30 ml-2 hidden -translate-y-1/2 rounded bg-slate-800 px-2 py-1 text-xs whitespace-nowrap text-white shadow group-hover:block group-focus:block"
    >
      {text}
    </span>
  );
}

/** How many failures wait unseen on a page: a count beside its name, or a dot on its icon when collapsed. */
function UnseenBadge({ count, isOpen }: { count: number; isOpen: boolean }) {
  return (
    <span
      data-testid="unseen-badge"
      className={`rounded-full bg-red-600 px-1.5 text-[10px] leading-4 font-semibold text-white ${
        isOpen ? '' : 'absolute top-0.5 left-7'
      }`}
    >
      <span aria-hidden="true">{count}</span>
      <span className="sr-only">{` (${count} ${count === 1 ? 'failure' : 'failures'} not seen)`}</span>
    </span>
  );
}

/** A closed group still shows what waits unseen inside it. */
function GroupUnseen({ links, isOpen }: { links: MenuLink[]; isOpen: boolean }) {
  const unseen = useUnseenCount(...links.map((link) => link.path));
  return unseen > 0 ? <UnseenBadge count={unseen} isOpen={isOpen} /> : null;
}

function MenuItem({ link, isOpen }: { link: MenuLink; isOpen: boolean }) {
  const unseen = useUnseenCount(link.path);
  return (
    <li>
      <NavLink to={link.path} className={linkClass}>
        <Icon icon={LINK_ICONS[link.path]} />
        {!isOpen && <Tooltip text={link.label} />}
        <span data-label className={isOpen ? '' : 'sr-only'}>
          {link.label}
        </span>
        {(unseen > 0 || (isOpen && link.badge)) && (
          <span className={isOpen ? 'ml-auto flex items-center gap-1' : ''}>
            {unseen > 0 && <UnseenBadge count={unseen} isOpen={isOpen} />}
            {isOpen && link.badge && (
              <span className="rounded bg-slate-100 px-1.5 text-[10px] font-semibold text-slate-600 uppercase">
                {link.badge}
              </span>
            )}
          </span>
        )}
      </NavLink>
    </li>
  );
}

/**
 * The side menu: w-64 open, w-16 collapsed, icons with their names as tooltips when collapsed. Groups
 * expand on click, Enter or Space; the group holding the current page is open unless the user closed
 * it. What a role sees comes from the contract's menu and role matrix, the same ones the server enforces.
 */
export function SideMenu({ user, isOpen, overlay = false, onRequestOpen }: SideMenuProps) {
  const { pathname } = useLocation();
  // Only what the user chose; a group not chosen is open when it holds the current page.
  const [chosen, setChosen] = useState<Partial<Record<MenuGroup['id'], boolean>>>({});
  const holdsPage = (group: MenuGroup) => group.links.some((link) => pathname.startsWith(link.path));
  const isGroupOpen = (group: MenuGroup) => chosen[group.id] ?? holdsPage(group);

  const toggle = (group: MenuGroup) => {
    if (!isOpen) onRequestOpen();
    setChosen((current) => ({ ...current, [group.id]: !isGroupOpen(group) || !isOpen }));
  };

  const place = overlay
    ? 'absolute inset-y-0 left-0 z-40 w-64 overflow-y-auto shadow-xl'
    : isOpen
      ? 'w-64 overflow-y-auto'
      : 'relative z-20 w-16 overflow-visible';
  const menu = (
    <nav
      id="side-menu"
      aria-label="Main menu"
      data-state={isOpen ? 'open' : 'collapsed'}
      // Collapsed, nothing clips the tooltips beside the icons; open, the menu scrolls when it is long.
      className={`${place} shrink-0 border-r border-slate-200 bg-white p-2 transition-[width] duration-200`}
    >
      <ul className="space-y-1">
        {TOP_LINKS.filter((link) => userCan(user, link.capability)).map((link) => (
          <MenuItem key={link.path} link={link} isOpen={isOpen} />
        ))}
      </ul>

      {MENU_GROUPS.map((group) => {
        const allowed = userCan(user, group.capability);
        if (!allowed && group.whenDenied === 'hidden') return null;
        const links = group.links.filter((link) => userCan(user, link.capability));
        const isExpanded = allowed && isGroupOpen(group);
        const panelId = `menu-group-${group.id}`;
        return (
          <div key={group.id} className="mt-3" data-menu-group={group.id}>
            <button
              type="button"
              aria-expanded={isExpanded}
              aria-controls={panelId}
              aria-disabled={!allowed}
              disabled={!allowed}
              title={allowed ? undefined : `${group.label} is not available for your role`}
              // A native button: Enter and Space activate it like a click.
              onClick={() => toggle(group)}
              className={`group relative flex w-full items-center gap-3 rounded-md px-3 py-2 text-left text-xs font-semibold tracking-wide uppercase ${
                allowed ? 'text-slate-600 hover:bg-slate-100' : 'cursor-not-allowed text-slate-400 opacity-60'
              }`}
            >
              <Icon icon={GROUP_ICONS[group.id]} />
              {!isOpen && <Tooltip text={group.label} />}
              <span className={isOpen ? '' : 'sr-only'}>{group.label}</span>
              {isOpen ? (
                <span className="ml-auto flex items-center gap-1">
                  {!isExpanded && <GroupUnseen links={links} isOpen />}
                  {isExpanded ? (
                    <ChevronDown aria-hidden="true" className="h-4 w-4" />
                  ) : (
                    <ChevronRight aria-hidden="true" className="h-4 w-4" />
                  )}
                </span>
              ) : (
                allowed && !isExpanded && <GroupUnseen links={links} isOpen={false} />
              )}
            </button>
            {isExpanded && (
              <ul id={panelId} className="mt-1 space-y-1">
                {links.map((link) => (
                  <MenuItem key={link.path} link={link} isOpen={isOpen} />
                ))}
              </ul>
            )}
          </div>
        );
      })}

      <ul className="mt-3 space-y-1 border-t border-slate-200 pt-3">
        {BOTTOM_LINKS.map((link) => (
          <MenuItem key={link.path} link={link} isOpen={isOpen} />
        ))}
      </ul>
    </nav>
  );
  // Over the page, the collapsed menu's place stays: the page keeps its width and does not move.
  return overlay ? (
    <>
      <div aria-hidden="true" className="w-16 shrink-0 border-r border-slate-200 bg-white" />
      {menu}
    </>
  ) : (
    menu
  );
}

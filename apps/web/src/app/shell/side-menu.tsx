import { useState } from 'react';
import { NavLink } from 'react-router';
import { BOTTOM_LINKS, MENU_GROUPS, TOP_LINKS, type MenuGroup, type MenuLink, type SessionUser } from '@ce/contract';
import { userCan } from '../../lib/permissions';

export interface SideMenuProps {
  user: SessionUser;
  isOpen: boolean;
  onRequestOpen: () => void;
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `flex items-center gap-3 rounded-md px-3 py-2 text-sm ${
    isActive ? 'bg-brand-100 font-medium text-brand-800' : 'text-slate-700 hover:bg-slate-100'
  }`;

function Initial({ label }: { label: string }) {
  return (
    <span
      aria-hidden="true"
      className="flex h-6 w-6 shrink-0 items-center justify-center rounded bg-slate-200 text-xs font-semibold text-slate-700"
    >
      {label.charAt(0)}
    </span>
  );
}

function MenuItem({ link, isOpen }: { link: MenuLink; isOpen: boolean }) {
  return (
    <li>
      <NavLink to={link.path} className={linkClass} title={isOpen ? undefined : link.label}>
        <Initial label={link.label} />
        <span data-label className={isOpen ? '' : 'sr-only'}>
          {link.label}
        </span>
        {isOpen && link.badge && (
          <span className="ml-auto rounded bg-slate-100 px-1.5 text-[10px] font-semibold text-slate-600 uppercase">
            {link.badge}
          </span>
        )}
      </NavLink>
    </li>
  );
}

/**
 * The side menu: w-64 open, w-16 collapsed. Groups expand on click, Enter or Space. What a role
 * sees comes from the contract's menu and role matrix, the same ones the server enforces.
 */
export function SideMenu({ user, isOpen, onRequestOpen }: SideMenuProps) {
  const [expanded, setExpanded] = useState<Record<MenuGroup['id'], boolean>>({
    reporting: false,
    tools: false,
    support: false,
  });

  const toggle = (id: MenuGroup['id']) => {
    if (!isOpen) onRequestOpen();
    setExpanded((current) => ({ ...current, [id]: !current[id] || !isOpen }));
  };

  return (
    <nav
      id="side-menu"
      aria-label="Main menu"
      data-state={isOpen ? 'open' : 'collapsed'}
      className={`${isOpen ? 'w-64' : 'w-16'} shrink-0 overflow-y-auto border-r border-slate-200 bg-white p-2 transition-[width] duration-200`}
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
        const isExpanded = allowed && expanded[group.id];
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
              onClick={() => toggle(group.id)}
              className={`flex w-full items-center gap-3 rounded-md px-3 py-2 text-left text-xs font-semibold tracking-wide uppercase ${
                allowed ? 'text-slate-500 hover:bg-slate-100' : 'cursor-not-allowed text-slate-300 opacity-60'
              }`}
            >
              <Initial label={group.label} />
              <span className={isOpen ? '' : 'sr-only'}>{group.label}</span>
              {isOpen && (
                <span aria-hidden="true" className="ml-auto">
                  {isExpanded ? '▾' : '▸'}
                </span>
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
}

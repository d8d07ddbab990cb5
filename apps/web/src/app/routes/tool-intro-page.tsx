import { useLocation } from 'react-router';
import type { AppPath } from '@ce/contract';
import { TOOL_PAGES } from '../../config/tool-pages';

/** A tool page whose tool is not built yet: what it will do, and nothing that pretends to work. */
export function ToolIntroPage() {
  const { pathname } = useLocation();
  const info = TOOL_PAGES[pathname as AppPath];
  if (!info) return null;
  return (
    <section className="max-w-3xl">
      <div className="flex items-center gap-3">
        <h1 className="text-2xl font-semibold">{info.title}</h1>
        {info.badge && (
          <span className="rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-800">
            {info.badge}
          </span>
        )}
      </div>
      <p className="mt-2 text-slate-600">{info.description}</p>
    </section>
  );
}

import { useSyncExternalStore } from 'react';
import type { ToastType } from '@ce/contract';
import { toast as defaultStore, type ToastStore } from './toast-store';

/** White text on each at 4.5:1 or more (WCAG AA for small text; green-600 and sky-600 are not). */
const STYLES: Record<ToastType, string> = {
  success: 'border-green-700 bg-green-700 text-white',
  error: 'border-red-600 bg-red-600 text-white',
  info: 'border-sky-700 bg-sky-700 text-white',
  warning: 'border-amber-500 bg-amber-400 text-slate-900',
  default: 'border-slate-700 bg-slate-800 text-white',
};

export interface ToasterProps {
  store?: ToastStore;
  /** Opens a toast's link inside the app (the router's navigate); without it the link loads the page. */
  navigate?: (to: string) => void;
}

/** Shows the store's toasts in a live region, so screen readers announce them. Errors interrupt; others wait. */
export function Toaster({ store = defaultStore, navigate }: ToasterProps) {
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return (
    <section
      aria-live="polite"
      aria-label="Notifications"
      // From 768 px up, below the navbar (h-14) at the right: never over Logout, the welcome line or the page's title
      // (at the left). On a phone the toast is as wide as the screen, so it sits at the bottom, off the title.
      className="pointer-events-none fixed inset-x-3 bottom-3 z-[100] flex flex-col gap-2 md:inset-x-auto md:top-16 md:right-4 md:bottom-auto md:w-80"
    >
      {toasts.map((item) => (
        <div
          key={item.id}
          role={item.type === 'error' ? 'alert' : 'status'}
          data-toast-type={item.type}
          className={`pointer-events-auto rounded-lg border px-4 py-3 shadow-lg ${STYLES[item.type]}`}
        >
          <div className="flex items-start gap-3">
            <div className="flex-1">
              {item.title && <p className="font-semibold">{item.title}</p>}
              <p className="text-sm">{item.message}</p>
              {item.link && (
                <a
                  href={item.link.to}
                  className="mt-1 inline-block text-sm font-semibold underline"
                  onClick={(event) => {
                    if (!navigate || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                    event.preventDefault();
                    store.dismiss(item.id);
                    navigate(item.link?.to ?? '/');
                  }}
                >
                  {item.link.label}
                </a>
              )}
            </div>
            <button
              type="button"
              // 24 px at least (WCAG 2.5.8): the cross alone is a smaller target.
              className="-mr-1 inline-flex h-6 w-6 shrink-0 items-center justify-center rounded text-sm opacity-80 hover:opacity-100"
              aria-label="Dismiss notification"
              onClick={() => store.dismiss(item.id)}
            >
              ×
            </button>
          </div>
        </div>
      ))}
    </section>
  );
}

import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { budgetWaits } from '../../lib/budget-waits';
import { BudgetWaitNotice } from './budget-wait-notice';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  title: string;
  isOpen: boolean;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** Tailwind max-width of the panel. */
  width?: string;
  /**
   * Below 768 px the panel fills the screen and its content fills the panel (a report's page): no margin, no
   * rounded frame, the room is the content's.
   */
  fullScreenOnPhone?: boolean;
}

/**
 * A modal dialog: it closes on Escape, a click on the backdrop or its X button; Tab and Shift+Tab stay
 * inside it; it opens on the element marked `data-autofocus` or its first field; and when it closes, focus
 * goes back where it was before it opened.
 */
export function Dialog({
  title,
  isOpen,
  onClose,
  children,
  footer,
  width = 'max-w-2xl',
  fullScreenOnPhone = false,
}: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  // The latest onClose, without re-running the focus set-up when the caller passes a new function.
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  }, [onClose]);

  // While open, the page behind leaves the budget waits to this dialog.
  useEffect(() => (isOpen ? budgetWaits.openDialog() : undefined), [isOpen]);

  useEffect(() => {
    if (!isOpen) return undefined;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focusables = () => Array.from(panel.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);
    // The element marked `data-autofocus` (a confirmation's Cancel), else the first field, else the panel itself.
    const first =
      focusables().find((element) => element.matches('[data-autofocus]')) ??
      focusables().find((element) => element.matches('input, select, textarea'));
    (first ?? panel.current)?.focus();
    const handleKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        close.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables();
      const first = items[0];
      const last = items.at(-1);
      if (!first || !last) {
        event.preventDefault();
        return;
      }
      const inside = panel.current?.contains(document.activeElement) ?? false;
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', handleKey);
    return () => {
      document.removeEventListener('keydown', handleKey);
      opener?.focus();
    };
  }, [isOpen]);

  if (!isOpen) return null;
  return (
    <div className={`fixed inset-0 z-50 flex items-center justify-center p-4 ${fullScreenOnPhone ? 'max-md:p-0' : ''}`}>
      <div
        data-testid="modal-backdrop"
        aria-hidden="true"
        className="absolute inset-0 bg-slate-900/50"
        onClick={onClose}
      />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`relative z-10 flex max-h-[90vh] w-full ${width} flex-col rounded-xl bg-white shadow-2xl outline-none ${fullScreenOnPhone ? 'max-md:h-full max-md:max-h-none max-md:max-w-none max-md:rounded-none' : ''}`}
      >
        <div className="flex items-center justify-between border-b border-slate-200 px-5 py-3">
          <h2 id={titleId} className="min-w-0 text-lg font-semibold break-words">
            {title}
          </h2>
          <button
            type="button"
            aria-label="Close"
            onClick={onClose}
            className="shrink-0 rounded p-1 text-slate-500 hover:bg-slate-100"
          >
            <X className="h-5 w-5" aria-hidden="true" />
          </button>
        </div>
        <div
          className={`overflow-y-auto px-5 py-4 ${fullScreenOnPhone ? 'max-md:flex max-md:min-h-0 max-md:flex-1 max-md:flex-col max-md:px-0 max-md:py-0' : ''}`}
        >
          <BudgetWaitNotice />
          {children}
        </div>
        {footer && <div className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3">{footer}</div>}
      </div>
    </div>
  );
}

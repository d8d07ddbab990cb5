import type { ReactNode } from 'react';

export type BannerTone = 'error' | 'warning' | 'info';

const TONES: Record<BannerTone, string> = {
  error: 'border-red-300 bg-red-50 text-red-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  info: 'border-brand-100 bg-brand-50 text-brand-800',
};

export interface BannerProps {
  tone?: BannerTone;
  children: ReactNode;
  /** A button or link offered beside the message (for example Retry). */
  action?: ReactNode;
}

/**
 * A message about the whole page, in the page (not a toast): it stays until the cause goes away.
 * Errors are announced at once (role alert), the rest politely (role status).
 */
export function Banner({ tone = 'info', children, action }: BannerProps) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`flex flex-wrap items-center justify-between gap-3 rounded-md border p-3 text-sm ${TONES[tone]}`}
    >
      <div>{children}</div>
      {action}
    </div>
  );
}

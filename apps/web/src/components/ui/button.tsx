import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost' | 'link';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800 font-medium',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
  danger: 'bg-red-700 text-white hover:bg-red-800 font-medium',
  ghost: 'text-slate-700 hover:bg-slate-100',
  link: 'text-brand-700 underline hover:text-brand-800',
};
const SIZES = { md: 'px-4 py-2', sm: 'px-3 py-1.5 text-sm' } as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: keyof typeof SIZES;
  /** Shows a spinner, says so to assistive technology, and refuses clicks until it is done. */
  busy?: boolean;
  /** What the spinner says while busy (the button's text stays visible). */
  busyLabel?: string;
  icon?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

/** The one button of the app: a look (variant), a size, and a busy state. Buttons never submit by accident. */
export function Button({
  variant = 'secondary',
  size = 'md',
  busy = false,
  busyLabel = 'Working',
  icon,
  type = 'button',
  disabled,
  className = '',
  children,
  ...rest
}: ButtonProps) {
  // A link-looking button still is a 24 px target at least (WCAG 2.5.8), even standing alone in a cell.
  const shape =
    variant === 'link'
      ? 'inline-flex min-h-6 items-center'
      : `inline-flex items-center justify-center gap-2 rounded-md ${SIZES[size]}`;
  return (
    <button
      type={type}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={`${shape} ${VARIANTS[variant]} disabled:cursor-not-allowed disabled:opacity-60 ${className}`}
      {...rest}
    >
      {busy ? <Spinner label={busyLabel} className="h-4 w-4" /> : icon}
      {children}
    </button>
  );
}

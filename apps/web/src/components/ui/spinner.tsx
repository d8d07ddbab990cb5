export interface SpinnerProps {
  label?: string;
  className?: string;
}

/** A turning ring with its words for assistive technology; it stands still for those who ask for less motion. */
export function Spinner({ label = 'Loading', className = 'h-5 w-5' }: SpinnerProps) {
  return (
    <span role="status" aria-label={label} className="inline-flex items-center">
      <span
        className={`${className} motion-safe:animate-spin rounded-full border-2 border-current border-t-transparent`}
      />
    </span>
  );
}

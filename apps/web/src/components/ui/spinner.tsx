export interface SpinnerProps {
  label?: string;
  className?: string;
}

export function Spinner({ label = 'Loading', className = 'h-5 w-5' }: SpinnerProps) {
  return (
    <span role="status" aria-label={label} className="inline-flex items-center">
      <span className={`${className} animate-spin rounded-full border-2 border-current border-t-transparent`} />
    </span>
  );
}

import { useRef, type ReactNode } from 'react';
import { Button, type ButtonProps } from './button';

export interface FileButtonProps extends Pick<ButtonProps, 'variant' | 'size' | 'disabled' | 'busy' | 'busyLabel'> {
  children: ReactNode;
  /** What the hidden file input is called for assistive technology and tests ("Templates file"). */
  inputLabel: string;
  /** A hint to the file dialog only: the file is judged by its content once read, never by its name. */
  accept?: string;
  onFile: (file: File) => void;
}

/**
 * A button that opens the file dialog. The chosen file is handed over once; choosing the same file
 * again works (the input is cleared each time).
 */
export function FileButton({ children, inputLabel, accept, onFile, ...button }: FileButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button {...button} onClick={() => input.current?.click()}>
        {children}
      </Button>
      <input
        ref={input}
        type="file"
        accept={accept}
        className="hidden"
        aria-label={inputLabel}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </>
  );
}

import type { ReactNode } from 'react';
import { Field } from './field';

export interface FilePickerProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** A hint to the file dialog only: the server judges the file by its content, never by its name. */
  accept?: string;
  /** The chosen file, or null when the choice is cleared. */
  onFile: (file: File | null) => void;
  className?: string;
}

/** A file input in a Field (label, hint, error); give it a new `key` to clear the choice. */
export function FilePicker({ label, hint, error, accept, onFile, className }: FilePickerProps) {
  return (
    <Field label={label} hint={hint} error={error} className={className}>
      {(control) => (
        <input
          {...control}
          type="file"
          accept={accept}
          // Its button a 24 px target at least (WCAG 2.5.8), as every other control.
          className="block min-h-6 w-full text-sm file:min-h-6"
          onChange={(event) => onFile(event.target.files?.[0] ?? null)}
        />
      )}
    </Field>
  );
}

export interface UploadProgressProps {
  /** The share of the file sent so far, 0 to 1 (from `uploadForm`'s onProgress). */
  share: number;
  /** What the server is doing once every byte is sent ("Reading the rows…"). */
  afterUpload?: string;
  className?: string;
}

/** An upload under way: a progress bar and how much is sent, then what the server does with it. */
export function UploadProgress({ share, afterUpload, className = '' }: UploadProgressProps) {
  return (
    <div className={`space-y-1 ${className}`}>
      <progress className="w-full" aria-label="Upload progress" max={1} value={share} />
      <p className="text-xs text-slate-500">
        {share >= 1 && afterUpload ? afterUpload : `${Math.round(share * 100)}% uploaded`}
      </p>
    </div>
  );
}

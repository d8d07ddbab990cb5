import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

export interface FieldProps {
  label: ReactNode;
  /** A line under the control saying what is expected. */
  hint?: ReactNode;
  /** What is wrong with the value; the control is marked invalid and describes itself with it. */
  error?: string | null;
  className?: string;
  children: (control: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true }) => ReactNode;
}

/**
 * A label, a control, a hint and an error, wired for assistive technology: the label names the control,
 * the hint and the error describe it, and an error marks it invalid.
 */
export function Field({ label, hint, error, className, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="mt-1">
        {children({
          id,
          ...(describedBy ? { 'aria-describedby': describedBy } : {}),
          ...(error ? { 'aria-invalid': true as const } : {}),
        })}
      </div>
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

const CONTROL =
  'w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600 disabled:bg-slate-100';

export interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  ref?: Ref<HTMLInputElement>;
  /** Classes of the field's wrapper. */
  fieldClassName?: string;
}

/** A text input in a Field; takes react-hook-form's `register(...)` as it is. */
export function TextInput({ label, hint, error, fieldClassName, className = '', ...input }: TextInputProps) {
  return (
    <Field label={label} hint={hint} error={error} className={fieldClassName}>
      {(control) => <input {...input} {...control} className={`${CONTROL} ${className}`} />}
    </Field>
  );
}

export interface TextAreaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  ref?: Ref<HTMLTextAreaElement>;
  fieldClassName?: string;
}

/** A multi-line text in a Field; takes react-hook-form's `register(...)` as it is. */
export function TextArea({ label, hint, error, fieldClassName, className = '', ...area }: TextAreaProps) {
  return (
    <Field label={label} hint={hint} error={error} className={fieldClassName}>
      {(control) => <textarea {...area} {...control} className={`${CONTROL} ${className}`} />}
    </Field>
  );
}

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: ReactNode;
  options: readonly SelectOption[];
  hint?: ReactNode;
  error?: string | null;
  /** A first, empty choice ("Choose…"), for a value not picked yet. */
  placeholder?: string;
  ref?: Ref<HTMLSelectElement>;
  fieldClassName?: string;
}

/** A native select in a Field: keyboard and screen readers work as they do everywhere. */
export function Select({
  label,
  options,
  hint,
  error,
  placeholder,
  fieldClassName,
  className = '',
  ...select
}: SelectProps) {
  return (
    <Field label={label} hint={hint} error={error} className={fieldClassName}>
      {(control) => (
        <select {...select} {...control} className={`${CONTROL} bg-white ${className}`}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

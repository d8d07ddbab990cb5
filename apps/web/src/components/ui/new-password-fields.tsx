import type { UseFormRegisterReturn } from 'react-hook-form';
import type { PasswordPolicy } from '@ce/contract';
import { TextInput } from './field';
import { PasswordRules } from './password-rules';

export interface NewPasswordFieldsProps {
  policy: PasswordPolicy | undefined;
  /** The new password as typed, so the rules tick as they are met. */
  password: string;
  /** react-hook-form's `register('newPassword')` and `register('confirmPassword')`. */
  newPassword: UseFormRegisterReturn;
  confirmPassword: UseFormRegisterReturn;
  /** Which of the two the form's last check refused. */
  invalid?: { newPassword?: boolean; confirmPassword?: boolean };
}

/** A new password twice, with the policy's rules shown and ticked as they are met. */
export function NewPasswordFields({ policy, password, newPassword, confirmPassword, invalid }: NewPasswordFieldsProps) {
  return (
    <>
      <TextInput
        label="New password"
        type="password"
        autoComplete="new-password"
        aria-invalid={invalid?.newPassword || undefined}
        {...newPassword}
      />
      <TextInput
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        aria-invalid={invalid?.confirmPassword || undefined}
        {...confirmPassword}
      />
      <PasswordRules policy={policy} password={password} />
    </>
  );
}

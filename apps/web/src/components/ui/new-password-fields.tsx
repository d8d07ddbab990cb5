import type { PasswordPolicy } from '@ce/contract';
import { PasswordRules } from './password-rules';
import { TextField } from './text-field';

export interface NewPasswordFieldsProps {
  policy: PasswordPolicy | undefined;
  newPassword: string;
  confirmPassword: string;
  onNewPasswordChange: (value: string) => void;
  onConfirmPasswordChange: (value: string) => void;
}

/** A new password twice, with the policy's rules shown and ticked as they are met. */
export function NewPasswordFields({
  policy,
  newPassword,
  confirmPassword,
  onNewPasswordChange,
  onConfirmPasswordChange,
}: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        value={newPassword}
        onValueChange={onNewPasswordChange}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        value={confirmPassword}
        onValueChange={onConfirmPasswordChange}
      />
      <PasswordRules policy={policy} password={newPassword} />
    </>
  );
}

/** The shared check of the two fields: both filled and equal (spec section 5). */
export function newPasswordProblem(newPassword: string, confirmPassword: string): string | null {
  if (newPassword === '' || confirmPassword === '') return 'Password cannot be empty';
  if (newPassword !== confirmPassword) return 'Passwords do not match';
  return null;
}

import { passwordRules, type PasswordPolicy } from '@ce/contract';

export interface PasswordRulesProps {
  policy: PasswordPolicy | undefined;
  password: string;
}

/** The password rules, shown before the user fails them, each ticked as it is met. */
export function PasswordRules({ policy, password }: PasswordRulesProps) {
  if (!policy) return null;
  return (
    <ul aria-label="Password rules" className="space-y-0.5 text-xs">
      {passwordRules(policy).map((rule) => {
        const met = rule.test(password);
        return (
          <li key={rule.id} data-met={met} className={met ? 'text-green-700' : 'text-slate-500'}>
            <span aria-hidden="true">{met ? '✓' : '○'}</span> {rule.label}
          </li>
        );
      })}
    </ul>
  );
}

/** The password rules, from configuration only (spec section 5). Checked by passwordPolicySchema. */
export interface PasswordPolicy {
  minLength: number;
  lowercase: boolean;
  uppercase: boolean;
  number: boolean;
  symbol: boolean;
}

export interface PasswordRule {
  id: keyof PasswordPolicy;
  label: string;
  test: (password: string) => boolean;
}

/** The rules a policy imposes, in the words the form shows before the user fails them. */
export function passwordRules(policy: PasswordPolicy): PasswordRule[] {
  const rules: PasswordRule[] = [
    {
      id: 'minLength',
      label: `At least ${policy.minLength} characters`,
      test: (password) => [...password].length >= policy.minLength,
    },
  ];
  if (policy.lowercase)
    rules.push({ id: 'lowercase', label: 'A lowercase letter', test: (password) => /\p{Ll}/u.test(password) });
  if (policy.uppercase)
    rules.push({ id: 'uppercase', label: 'An uppercase letter', test: (password) => /\p{Lu}/u.test(password) });
  if (policy.number) rules.push({ id: 'number', label: 'A number', test: (password) => /\p{Nd}/u.test(password) });
  if (policy.symbol) {
    rules.push({ id: 'symbol', label: 'A symbol', test: (password) => /[^\p{L}\p{Nd}\s]/u.test(password) });
  }
  return rules;
}

/** The rules a password breaks; empty when it is acceptable. */
export function passwordProblems(policy: PasswordPolicy, password: string): string[] {
  return passwordRules(policy)
    .filter((rule) => !rule.test(password))
    .map((rule) => rule.label);
}

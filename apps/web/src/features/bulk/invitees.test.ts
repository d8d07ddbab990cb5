import { describe, expect, it } from 'vitest';
import { parseInvitees, usersFormSchema } from './invitees';

describe('parseInvitees', () => {
  it('keeps empty cells in their column: ",bob@example.com" under "name,email" is Bob without a name', () => {
    expect(parseInvitees('name,email\nAna Silva,ana@example.com\n,bob@example.com')).toEqual({
      invitees: [
        { email: 'ana@example.com', name: 'Ana Silva' },
        { email: 'bob@example.com', name: '' },
      ],
      rejected: [],
    });
  });

  it('reads quoted fields, semicolons and a byte-order mark', () => {
    const csv = '\uFEFF"Full Name";"E-mail"\n"Silva; Ana";ANA@Example.com\n"Doe, ""JJ""";jj@example.com';
    expect(parseInvitees(csv).invitees).toEqual([
      { email: 'ana@example.com', name: 'Silva; Ana' },
      { email: 'jj@example.com', name: 'Doe, "JJ"' },
    ]);
  });

  it('takes one address per line without a header, each once, and lists what it cannot read', () => {
    expect(parseInvitees('a@example.com\n\nnot an address\nA@example.com\nb@example.com')).toEqual({
      invitees: [
        { email: 'a@example.com', name: '' },
        { email: 'b@example.com', name: '' },
      ],
      rejected: ['not an address'],
    });
  });

  it('refuses a row whose email column holds no address, even when another cell does', () => {
    expect(parseInvitees('email,name\nnobody,x@example.com').rejected).toEqual(['nobody, x@example.com']);
  });
});

describe('the users form', () => {
  const messages = (values: { roleId: string; text: string }) =>
    usersFormSchema.safeParse(values).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

  it('asks for a role and at least one address, in the words the server uses', () => {
    expect(messages({ roleId: '', text: 'ana@example.com' })).toEqual(['roleId: Choose a role']);
    expect(messages({ roleId: '3', text: 'not an address' })).toEqual(['text: Add at least one email address']);
    expect(messages({ roleId: '3', text: 'name,email\n,bob@example.com' })).toEqual([]);
  });
});

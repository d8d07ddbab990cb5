import { Building2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PATHS, RECENT_TOKENS, type ReportAccountGroup, type TokenAbility } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TokenField } from '../../../components/ui/token-field';
import { customerLabel, customers, useCustomers, type Customer } from '../../../lib/customer';
import { apiErrorText } from '../../../lib/error-toasts';
import { useCheckCustomerToken } from '../api/token-check';

/** Where a customer's page is. */
export const customerPath = (organizationId: string) => `${PATHS.customers}/${encodeURIComponent(organizationId)}`;

/** Whether a token may do all the tools do: chosen without a second look (any other stays said in the dialog). */
const mayDoAll = (ability: TokenAbility) => ability.canWrite === true && ability.cannotRead.length === 0;

/**
 * The organizations a token sees, each as the customer it would be, with the account groups it sees there and
 * what the token may do.
 */
function customersOf(token: string, groups: readonly ReportAccountGroup[], ability: TokenAbility): Customer[] {
  const named = new Map(groups.map((group) => [group.organizationId, group.organizationName]));
  return [...named].map(([organizationId, organizationName]) => {
    const inOrganization = groups.filter((group) => group.organizationId === organizationId);
    return {
      token,
      organizationId,
      organizationName,
      accountGroups: inOrganization.map((group) => group.accountGroupName),
      groups: inOrganization,
      ability: { label: ability.label, summary: ability.summary, full: mayDoAll(ability) },
    };
  });
}

/** What the chosen customer's token may do, in words; amber when it may not do everything. */
function AbilityLine({ ability }: { ability: NonNullable<Customer['ability']> }) {
  return (
    <p
      role="status"
      data-testid="customer-ability"
      className={ability.full ? 'text-sm text-slate-700' : 'rounded-md bg-amber-50 px-2 py-1 text-sm text-amber-900'}
    >
      {ability.summary}
    </p>
  );
}

/** How many account groups are named before "and n more". */
const GROUPS_NAMED = 6;

/** The chosen customer's account groups, in words: "Account groups: A, B and 3 more". */
function AccountGroupsLine({ names }: { names: readonly string[] }) {
  const shown = names.slice(0, GROUPS_NAMED);
  const more = names.length - shown.length;
  return (
    <p className="text-sm text-slate-700" data-testid="customer-account-groups">
      {names.length === 1 ? 'Account group: ' : `${names.length} account groups: `}
      {shown.join(', ')}
      {more > 0 && ` and ${more} more`}
    </p>
  );
}

/**
 * The navbar's customer: which organization the tools work for, chosen once by pasting an Org Admin token (the
 * product names the organization), or in one click among the recent ones. Every tool's token field opens with it.
 */
export function CustomerSwitcher() {
  const { current, recent } = useCustomers();
  const [open, setOpen] = useState(false);
  const [token, setToken] = useState('');
  const [found, setFound] = useState<Customer[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const checkToken = useCheckCustomerToken();

  const close = () => {
    setOpen(false);
    setToken('');
    setFound(null);
    setProblem(null);
  };
  const choose = (customer: Customer, full = true) => {
    customers.choose(customer);
    if (full) return close();
    // A token that may not do everything: the dialog stays open, saying what it may do.
    setToken('');
    setFound(null);
  };
  const check = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = token.trim();
    if (!trimmed) return setProblem('Paste the Org Admin token of the customer.');
    setProblem(null);
    checkToken.mutateAsync(trimmed).then(
      ({ accountGroups, ability }) => {
        const seen = customersOf(trimmed, accountGroups, ability);
        if (seen.length === 0) return setProblem('This token sees no account group.');
        const [only] = seen;
        if (seen.length === 1 && only) return choose(only, mayDoAll(ability));
        setFound(seen);
      },
      (error: unknown) => setProblem(apiErrorText(error, 'The token could not be checked. Try again in a moment.')),
    );
  };

  const others = recent.filter(
    (customer) => customer.token !== current?.token || customer.organizationId !== current.organizationId,
  );
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        data-testid="customer-switcher"
        className={`flex shrink items-center gap-1.5 rounded-md border border-slate-300 px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-100 ${current ? 'min-w-22' : 'min-w-0'}`}
      >
        <Building2 aria-hidden="true" className="h-4 w-4 shrink-0" />
        <span className="sr-only">Customer: </span>
        {/* On a phone the chosen customer stays in sight (whole, the room is its); the invitation to choose is the icon. */}
        {current ? (
          <span className="min-w-12 truncate sm:max-w-24 md:max-w-40" data-testid="customer-switcher-name">
            {current.organizationName}
          </span>
        ) : (
          <>
            <span className="max-w-40 truncate max-md:sr-only">Choose a customer</span>
            <span className="sr-only md:hidden">none chosen</span>
          </>
        )}
      </button>
      <Dialog title="Customer" isOpen={open} onClose={close} width="max-w-lg">
        <div className="space-y-4">
          {current ? (
            <section aria-label="Chosen customer" className="space-y-2 rounded-lg border border-slate-200 p-3">
              <p className="text-sm">
                Working for <span className="font-semibold">{customerLabel(current)}</span>
              </p>
              {current.ability && <AbilityLine ability={current.ability} />}
              {current.accountGroups && current.accountGroups.length > 0 && (
                <AccountGroupsLine names={current.accountGroups} />
              )}
              <div className="flex flex-wrap gap-2">
                <Link
                  to={customerPath(current.organizationId)}
                  onClick={close}
                  className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100"
                >
                  Open the customer&apos;s page
                </Link>
                <Button onClick={() => customers.clear({ everywhere: true })}>Forget this customer</Button>
              </div>
            </section>
          ) : (
            <p className="text-sm text-slate-600">
              Choose the customer once: every tool then opens with its token. The token stays in this browser for your
              session only and is forgotten when you sign out.
            </p>
          )}
          {others.length > 0 && (
            <section aria-labelledby="recent-customers-heading" className="space-y-2">
              <h3 id="recent-customers-heading" className="text-sm font-medium">
                Recent customers
              </h3>
              <ul className="flex flex-wrap gap-2">
                {others.map((customer) => (
                  <li key={`${customer.organizationId}:${customer.token.slice(-RECENT_TOKENS.visibleChars)}`}>
                    <Button size="sm" onClick={() => choose(customer)}>
                      {customerLabel(customer)}
                    </Button>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <form onSubmit={check} noValidate aria-label="Another customer" className="space-y-2">
            <TokenField
              label="Org Admin token"
              placeholder="Paste the Org Admin's API token"
              value={token}
              onChange={(event) => {
                setToken(event.target.value);
                setFound(null);
              }}
              error={problem ?? undefined}
              customer={false}
            />
            <Button
              type="submit"
              variant="primary"
              busy={checkToken.isPending}
              busyLabel="Checking what the token may do"
            >
              Use this token
            </Button>
          </form>
          <p className="text-sm">
            <Link to={PATHS.customers} onClick={close} className="text-brand-800 underline">
              My customers
            </Link>
            <span className="text-slate-600">: every customer you watch, with its score and trend.</span>
          </p>
          {found && (
            <section aria-labelledby="found-heading" className="space-y-2">
              <h3 id="found-heading" className="text-sm font-medium">
                This token sees {found.length} organizations: which one?
              </h3>
              <ul className="flex flex-wrap gap-2">
                {found.map((customer) => (
                  <li key={customer.organizationId}>
                    <Button size="sm" onClick={() => choose(customer, customer.ability?.full !== false)}>
                      {customer.organizationName}
                    </Button>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </Dialog>
    </>
  );
}

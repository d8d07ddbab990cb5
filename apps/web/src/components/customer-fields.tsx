import { Button } from './ui/button';
import { Select } from './ui/field';
import { TokenField } from './ui/token-field';
import type { TokenList } from '../lib/recent-tokens';
import type { Customer } from '../lib/use-customer';

/** What a token step reads and does: the token as typed, the recent tokens' list, and Load Account Groups. */
export interface TokenLoader {
  rawToken: string;
  setToken: (token: string) => void;
  loading: boolean;
  load: () => Promise<unknown>;
}

/** A customer's token (with the user's recent ones of the tool) and Load Account Groups, on one line. */
export function TokenLoadRow({
  loader,
  list,
  label,
  name,
  chosen = true,
}: {
  loader: TokenLoader;
  list: TokenList;
  label: string;
  name?: string;
  /** Opens with the customer chosen in the navbar (not for another organization's token). */
  chosen?: boolean;
}) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="min-w-0 flex-1 basis-72">
        <TokenField
          label={label}
          name={name}
          placeholder="Paste the Org Admin's API token"
          recent={{ list, pick: loader.setToken }}
          value={loader.rawToken}
          onChange={(event) => loader.setToken(event.target.value)}
          customer={chosen}
        />
      </div>
      <Button
        variant="primary"
        className="mb-[2px]"
        busy={loader.loading}
        busyLabel="Checking the token"
        onClick={() => void loader.load()}
      >
        Load Account Groups
      </Button>
    </div>
  );
}

/** A customer's token, Load Account Groups, and the organization when the token sees more than one. */
export function CustomerFields({
  customer,
  label,
  name,
  chosen = true,
}: {
  customer: Customer;
  label: string;
  name: string;
  /** Opens with the customer chosen in the navbar (not for another organization's token). */
  chosen?: boolean;
}) {
  const { organizations } = customer;
  return (
    <div className="space-y-3">
      <TokenLoadRow loader={customer} list={customer.list} label={label} name={name} chosen={chosen} />
      {organizations.length > 1 && (
        <Select
          label="Organization"
          options={organizations}
          value={customer.organizationId}
          onChange={(event) => customer.setOrganizationId(event.target.value)}
        />
      )}
    </div>
  );
}

/** Into another organization: a checkbox, and once checked that organization's own token and organization. */
export function OtherOrganizationFields({
  checked,
  onChange,
  customer,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The other organization's token step. */
  customer: Customer;
}) {
  return (
    <>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
        Into another organization (with its own Org Admin token)
      </label>
      {checked && (
        <CustomerFields
          customer={customer}
          label="OAuth Token of the target organization"
          name="target-token"
          chosen={false}
        />
      )}
    </>
  );
}

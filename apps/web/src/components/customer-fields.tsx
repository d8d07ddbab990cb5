import { Button } from './ui/button';
import { Select } from './ui/field';
import { TokenField } from './ui/token-field';
import type { Customer } from '../lib/use-customer';

/** A customer's token, Load Account Groups, and the organization when the token sees more than one. */
export function CustomerFields({ customer, label, name }: { customer: Customer; label: string; name: string }) {
  const { organizations } = customer;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-72 flex-1">
          <TokenField
            label={label}
            name={name}
            placeholder="Paste the Org Admin's API token"
            recent={{ list: customer.list, pick: customer.setToken }}
            value={customer.rawToken}
            onChange={(event) => customer.setToken(event.target.value)}
          />
        </div>
        <Button
          variant="primary"
          className="mb-[2px]"
          busy={customer.loading}
          busyLabel="Checking the token"
          onClick={() => void customer.load()}
        >
          Load Account Groups
        </Button>
      </div>
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

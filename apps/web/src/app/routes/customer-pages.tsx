import { CustomerPage as Customer } from '../../features/customers/components/customer-page';
import { CustomersPage as Customers } from '../../features/customers/components/customers-page';
import { CustomerWatches } from '../../features/watches/components/customer-watches';
import { Portfolio } from '../../features/watches/components/portfolio';

/** A customer's page: its timeline, then its Account Watch. */
export function CustomerPage() {
  return (
    <Customer
      more={({ organizationId, name }) => <CustomerWatches organizationId={organizationId} organizationName={name} />}
    />
  );
}

/** The customers: the one chosen now, the recent ones, and My customers (every watched one). */
export function CustomersPage() {
  return (
    <Customers>
      <Portfolio />
    </Customers>
  );
}

import { lazy, Suspense } from 'react';
import { CustomerPage as Customer } from '../../features/customers/components/customer-page';
import { CustomersPage as Customers } from '../../features/customers/components/customers-page';
import { CustomerWatches } from '../../features/watches/components/customer-watches';
import { NeedsAttention } from '../../features/watches/components/needs-attention';

// My customers' table (and the table library) is not among the scripts a customer's own page waits for.
const Portfolio = lazy(() =>
  import('../../features/watches/components/portfolio').then((module) => ({ default: module.Portfolio })),
);

/** A customer's page: its header, what needs attention (waivable), its Account Watch, then its timeline. */
export function CustomerPage() {
  return (
    <Customer
      attention={({ organizationId, overview }) => (
        <NeedsAttention organizationId={organizationId} attention={overview?.attention} health={overview?.health} />
      )}
      more={({ organizationId, name, overview }) => (
        <CustomerWatches organizationId={organizationId} organizationName={name} lastHealth={overview?.health} />
      )}
    />
  );
}

/** The customers: the one chosen now, the recent ones, and My customers (every watched one). */
export function CustomersPage() {
  return (
    <Customers>
      <Suspense fallback={<p className="text-sm text-slate-700">Loading My customers…</p>}>
        <Portfolio />
      </Suspense>
    </Customers>
  );
}

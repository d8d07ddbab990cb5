import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { customerLabel, customers, useCustomers } from '../../../lib/customer';
import { Button } from '../../../components/ui/button';
import { customerPath, CustomerSwitcher } from './customer-switcher';

/** /home/customers: the customer chosen now and the recent ones, each with its page; `children` (My customers) after. */
export function CustomersPage({ children }: { children?: ReactNode }) {
  const { current, recent } = useCustomers();
  const others = recent.filter((customer) => customer.organizationId !== current?.organizationId);
  return (
    <section className="max-w-6xl space-y-4">
      <h1 className="text-2xl font-semibold">Customers</h1>
      <p className="text-slate-600">
        The customer you work for is chosen in the header, once: every tool opens with its token. Each customer has a
        page with everything done for it.
      </p>
      {current ? (
        <p>
          Now:{' '}
          <Link to={customerPath(current.organizationId)} className="font-semibold text-brand-800 underline">
            {current.organizationName}
          </Link>{' '}
          <span className="text-sm text-slate-500">({customerLabel(current)})</span>
        </p>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <span>No customer chosen.</span>
          <CustomerSwitcher />
        </div>
      )}
      {others.length > 0 && (
        <section aria-labelledby="recent-heading" className="space-y-2">
          <h2 id="recent-heading" className="text-lg font-medium">
            Recent customers
          </h2>
          <ul className="space-y-2">
            {others.map((customer) => (
              <li
                key={`${customer.organizationId}:${customer.token.slice(-8)}`}
                className="flex flex-wrap items-center gap-2"
              >
                <Link to={customerPath(customer.organizationId)} className="text-brand-800 underline">
                  {customer.organizationName}
                </Link>
                <Button size="sm" onClick={() => customers.choose(customer)}>
                  Work for {customer.organizationName}
                </Button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {children}
    </section>
  );
}

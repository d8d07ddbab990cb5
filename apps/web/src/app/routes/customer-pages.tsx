export { CustomerPage } from '../../features/customers/components/customer-page';
export { CustomersPage } from '../../features/customers/components/customers-page';

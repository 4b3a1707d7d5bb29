export * from './customer-enums';
export * from './customer-parts.dto';
export * from './customers.dto';
export * from './customer';

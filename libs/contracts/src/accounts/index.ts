export * from './internal-accounts.dto';

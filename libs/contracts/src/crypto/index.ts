export * from './withdrawal-fee.dto';

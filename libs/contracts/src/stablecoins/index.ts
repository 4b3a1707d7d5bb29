export * from './stablecoins';
export * from './stablecoins.dto';

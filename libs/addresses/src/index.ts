export * from './codecs';
export * from './bitcoin-address';
export * from './evm-address';
export * from './lightning';
export * from './solana-address';
export * from './spark-address';
export * from './tron-address';
export * from './spark-token';

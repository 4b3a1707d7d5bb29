export { discover, discoveredBankNames, INSTITUTIONS } from './discover';
export type { DiscoveryQuery } from './discover';
export type { Institution } from './institution';

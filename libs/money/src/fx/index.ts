export type { Rational } from './rational';
export * from './quote-pricing';
export * from './recompute';

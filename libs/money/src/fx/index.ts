export type { Rational } from './rational';
export { parseDecimal, mul, reduce } from './rational';
export * from './quote-pricing';
export * from './recompute';

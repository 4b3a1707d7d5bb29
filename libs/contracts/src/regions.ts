/**
 * Regions (ISO 3166-1 alpha-2) where contact verification and Strong Customer Authentication apply: the EU and the
 * rest of the EEA. One list, used by identity (contact channels) and quoting (SCA).
 */
export const SCA_REGIONS: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL',
  'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'IS', 'LI', 'NO',
]);

export const isScaRegion = (region: string | undefined | null): boolean => !!region && SCA_REGIONS.has(region.toUpperCase());

import { Institution, institutionsOf } from './institution';

/** Banks and wallets in the Americas (public institution names). */
export const AMERICAS: readonly Institution[] = [
  ...institutionsOf('US', 'USD', [
    ['JPMORGAN_CHASE', 'JPMorgan Chase Bank'], ['BANK_OF_AMERICA', 'Bank of America'], ['WELLS_FARGO', 'Wells Fargo Bank'],
    ['CITIBANK', 'Citibank'], ['US_BANK', 'U.S. Bank'],
  ]),
  ...institutionsOf('SV', 'USD', [
    ['BANCO_AGRICOLA', 'Banco Agrícola'], ['BANCO_CUSCATLAN', 'Banco Cuscatlán'], ['BANCO_DAVIVIENDA_SALVADORENO', 'Banco Davivienda Salvadoreño'],
    ['BAC_CREDOMATIC_EL_SALVADOR', 'BAC Credomatic El Salvador'], ['TIGO_MONEY_EL_SALVADOR', 'Tigo Money'],
  ]),
  ...institutionsOf('MX', 'MXN', [
    ['BBVA_MEXICO', 'BBVA México'], ['BANORTE', 'Banorte'], ['SANTANDER_MEXICO', 'Santander México'], ['BANAMEX', 'Banamex'],
    ['HSBC_MEXICO', 'HSBC México'], ['BANCO_AZTECA', 'Banco Azteca'],
  ]),
  ...institutionsOf('BR', 'BRL', [
    ['BANCO_DO_BRASIL', 'Banco do Brasil'], ['ITAU_UNIBANCO', 'Itaú Unibanco'], ['BRADESCO', 'Banco Bradesco'],
    ['CAIXA_ECONOMICA_FEDERAL', 'Caixa Econômica Federal'], ['NUBANK', 'Nu Pagamentos (Nubank)'], ['SANTANDER_BRASIL', 'Banco Santander Brasil'],
  ]),
  ...institutionsOf('CO', 'COP', [
    ['BANCOLOMBIA', 'Bancolombia'], ['BANCO_DE_BOGOTA', 'Banco de Bogotá'], ['DAVIVIENDA', 'Banco Davivienda'],
    ['BBVA_COLOMBIA', 'BBVA Colombia'], ['NEQUI', 'Nequi'], ['DAVIPLATA', 'DaviPlata'],
  ]),
  ...institutionsOf('CA', 'CAD', [
    ['ROYAL_BANK_OF_CANADA', 'Royal Bank of Canada'], ['TD_CANADA_TRUST', 'TD Canada Trust'], ['SCOTIABANK', 'Scotiabank'],
    ['BANK_OF_MONTREAL', 'Bank of Montreal'], ['CIBC', 'Canadian Imperial Bank of Commerce'],
  ]),
  ...institutionsOf('GT', 'GTQ', [
    ['BANCO_INDUSTRIAL', 'Banco Industrial'], ['BANRURAL', 'Banco de Desarrollo Rural (Banrural)'],
    ['BAC_CREDOMATIC_GUATEMALA', 'BAC Credomatic Guatemala'], ['BANCO_G_AND_T_CONTINENTAL', 'Banco G&T Continental'],
  ]),
  ...institutionsOf('HT', 'HTG', [
    ['MONCASH', 'Digicel MonCash'], ['NATCASH', 'Natcom NatCash'], ['SOGEBANK', 'Sogebank'], ['UNIBANK_HAITI', 'Unibank'],
  ]),
  ...institutionsOf('JM', 'JMD', [
    ['NATIONAL_COMMERCIAL_BANK_JAMAICA', 'National Commercial Bank Jamaica (NCB)'], ['SCOTIABANK_JAMAICA', 'Scotiabank Jamaica'],
    ['JN_BANK', 'JN Bank'], ['SAGICOR_BANK_JAMAICA', 'Sagicor Bank Jamaica'],
  ]),
  ...institutionsOf('AR', 'ARS', [
    ['BANCO_DE_LA_NACION_ARGENTINA', 'Banco de la Nación Argentina'], ['BANCO_GALICIA', 'Banco Galicia'],
    ['SANTANDER_ARGENTINA', 'Banco Santander Argentina'], ['BBVA_ARGENTINA', 'BBVA Argentina'], ['MERCADO_PAGO', 'Mercado Pago'],
  ]),
];

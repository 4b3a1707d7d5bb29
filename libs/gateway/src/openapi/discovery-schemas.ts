/** GET /discoveries: institutions from the accounts service's catalogue, not paginated. */
export const DISCOVERY_SCHEMAS = {
  Discovery: {
    type: 'object',
    required: ['bankName', 'displayName', 'country', 'currency'],
    properties: {
      bankName: { type: 'string', description: 'The value to pass as bankName when creating an external account.', examples: ['BDO_UNIBANK'] },
      displayName: { type: 'string', examples: ['BDO Unibank'] },
      country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.', examples: ['PH'] },
      currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217.', examples: ['PHP'] },
    },
  },
  DiscoveryList: {
    type: 'object',
    required: ['data'],
    properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Discovery' } } },
  },
} as const;

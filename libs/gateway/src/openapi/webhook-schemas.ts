/** Response schemas of the webhook routes (spread into RESPONSE_SCHEMAS). */
export const WEBHOOK_SCHEMAS = {
  WebhookTestResult: {
    type: 'object',
    required: ['url', 'response_status', 'response_body'],
    properties: {
      url: { type: 'string', format: 'uri', description: 'The endpoint the TEST was sent to.' },
      response_status: { type: 'integer', description: 'The HTTP status the endpoint answered.' },
      response_body: { type: 'string', description: 'The first 1 KB of the endpoint\'s answer.' },
    },
  },
} as const;

import { INVITATION_STATUSES } from '@payments/contracts';

/** Response schemas of UMA invitations (merged into RESPONSE_SCHEMAS). */
export const INVITATION_SCHEMAS = {
  UmaInvitation: {
    type: 'object',
    required: ['code', 'url', 'status', 'inviterUma', 'createdAt', 'expiresAt'],
    properties: {
      code: { type: 'string', pattern: '^[A-Za-z0-9_-]{16}$', description: 'Unguessable; share it (or `url`) with the invitee.' },
      url: { type: 'string', format: 'uri', description: 'The invitation link: `<PUBLIC_URL>/invitations/<code>`.' },
      status: { type: 'string', enum: [...INVITATION_STATUSES] },
      inviterUma: { type: 'string', description: 'The inviting customer\'s UMA address, lower case.' },
      inviteeUma: { type: 'string', description: 'Set by the claim.' },
      firstName: { type: 'string', description: 'The invitee\'s first name, as the inviter gave it.' },
      amountToSend: {
        type: 'object',
        required: ['amount', 'currency'],
        properties: { amount: { type: 'integer', minimum: 1, description: 'Smallest unit of the currency.' }, currency: { $ref: '#/components/schemas/QuoteCurrency' } },
      },
      createdAt: { type: 'string', format: 'date-time' },
      claimedAt: { type: 'string', format: 'date-time' },
      expiresAt: { type: 'string', format: 'date-time' },
    },
  },
} as const;

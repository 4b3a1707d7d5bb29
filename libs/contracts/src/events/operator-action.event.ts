import type { OperatorActionRecordedData } from '../operator/audit';
import { dataSchema, defineEvent, EventService } from './catalogue';

/**
 * `OperatorActionRecorded.v1`, declared alike in the catalogue of every service an operator acts through: each
 * service records the actions it performed (in the transaction of their effect) and publishes them on its own topic;
 * identity gathers them into the audit log. One shape everywhere, so decodeAny reads it from any topic.
 */
export const operatorActionRecorded = (service: EventService) => ({
  ...defineEvent({
    service,
    name: 'OperatorActionRecorded',
    version: 1,
    visibility: 'public',
    data: dataSchema<OperatorActionRecordedData>('OperatorActionRecordedData'),
    description: 'An operator acted (a KYC/KYB decision, an account decision, a rate or fee set): who, what, on what, when and why.',
  }),
  shared: true as const,
});

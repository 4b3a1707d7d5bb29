import { FieldError, US_TAXPAYER_ID_TYPES } from '@payments/contracts';
import { profileErrors } from '../customers/customer.rules';
import { OwnerPersonalInfo } from './beneficial-owner.events';

const US_TAXPAYER_ID = /^\d{3}-?\d{2}-?\d{4}$/;
export const OWNERSHIP_TOTAL_MAX_PERCENT = 100;

/** Rules over a whole personalInfo (after a create or a patch) that the request DTO alone cannot express. */
export function personalInfoErrors(info: OwnerPersonalInfo, today: string): FieldError[] {
  const errors: FieldError[] = [];
  if (info.birthDate >= today) errors.push({ field: 'personalInfo.birthDate', message: 'birthDate must be in the past' });
  if (US_TAXPAYER_ID_TYPES.includes(info.idType) && !US_TAXPAYER_ID.test(info.identifier)) {
    errors.push({ field: 'personalInfo.identifier', message: `an ${info.idType} has the form ###-##-####` });
  }
  // The same address rules as a customer's (US state and ZIP, Canadian and UK postcodes).
  for (const e of profileErrors('INDIVIDUAL', { address: info.address }, [], today)) errors.push({ ...e, field: `personalInfo.${e.field}` });
  return errors;
}

/** The owners of one business may together hold at most 100 %. */
export function ownershipErrors(ownershipPercentage: number, othersPercentage: number): FieldError[] {
  const total = ownershipPercentage + othersPercentage;
  if (total <= OWNERSHIP_TOTAL_MAX_PERCENT) return [];
  return [{ field: 'ownershipPercentage', message: `the owners of this business would hold ${total} % together; at most ${OWNERSHIP_TOTAL_MAX_PERCENT} % is possible` }];
}

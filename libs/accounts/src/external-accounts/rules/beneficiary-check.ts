import { AccountType, isAccountType } from './account-types';
import { AccountInfo } from './field-rule';
import { rowFor } from './table/account-type-table';

/** `beneficiaryVerificationStatus` values (interop §6.5). */
export type BeneficiaryVerificationStatus = 'MATCHED' | 'PARTIAL_MATCH' | 'NOT_MATCHED' | 'UNSUPPORTED' | 'CHECKED_BY_RECEIVING_FI' | 'PENDING';

/** What the sandbox name check decides; INVALID_ACCOUNT is the service's cue for a 400 (seed: suffix 105). */
export type BeneficiaryCheck =
  | { outcome: 'STATUS'; status: BeneficiaryVerificationStatus }
  | { outcome: 'INVALID_ACCOUNT'; httpStatus: 400; code: 'INVALID_BANK_ACCOUNT'; message: string }
  | { outcome: 'NOT_APPLICABLE' };

const STATUS_BY_SUFFIX: Readonly<Record<string, BeneficiaryVerificationStatus>> = {
  '102': 'NOT_MATCHED',
  '103': 'PARTIAL_MATCH',
  '104': 'PENDING',
  '106': 'UNSUPPORTED',
  '107': 'CHECKED_BY_RECEIVING_FI',
};
const INVALID_ACCOUNT_SUFFIX = '105';

/**
 * The sandbox magic suffix of an account: the final three characters of its primary identifier (for identifiers with
 * a domain, such as a lightning address, UPI address or e-mail PIX key, of the part before the @), when all three are
 * digits; undefined otherwise. Shared by the beneficiary check (102-107) and transfers and quotes (002-007).
 */
export function sandboxSuffix(accountType: AccountType | string, accountInfo: AccountInfo): string | undefined {
  if (!isAccountType(accountType)) return undefined;
  const identifier = rowFor(accountType)?.identifier(accountInfo) ?? '';
  const at = identifier.lastIndexOf('@');
  const user = at >= 0 ? identifier.slice(0, at) : identifier;
  const suffix = user.slice(-3);
  return /^\d{3}$/.test(suffix) ? suffix : undefined;
}

/**
 * The sandbox beneficiary-name check: 102 NOT_MATCHED, 103 PARTIAL_MATCH, 104 PENDING, 105 invalid account,
 * 106 UNSUPPORTED, 107 CHECKED_BY_RECEIVING_FI, anything else MATCHED. Crypto wallets carry no beneficiary: no check.
 */
export function sandboxBeneficiaryCheck(accountType: AccountType | string, accountInfo: AccountInfo): BeneficiaryCheck {
  if (!isAccountType(accountType) || rowFor(accountType)?.beneficiary !== 'required') return { outcome: 'NOT_APPLICABLE' };
  const suffix = sandboxSuffix(accountType, accountInfo);
  if (suffix === INVALID_ACCOUNT_SUFFIX) {
    return { outcome: 'INVALID_ACCOUNT', httpStatus: 400, code: 'INVALID_BANK_ACCOUNT', message: 'the receiving institution reports the account as invalid' };
  }
  return { outcome: 'STATUS', status: (suffix && STATUS_BY_SUFFIX[suffix]) || 'MATCHED' };
}

/**
 * The sandbox's simulated KYC/KYB provider (seed, sandbox magic values): the last three characters of a value decide.
 * Individuals by fullName, businesses by businessInfo.registrationNumber, beneficial owners by lastName.
 * PENDING means no automatic decision: the case waits for a (non-existent) manual reviewer.
 */
export type SandboxOutcome = 'PENDING' | 'REJECTED' | 'APPROVED';

export function sandboxOutcome(value: string | undefined): SandboxOutcome {
  const suffix = (value ?? '').slice(-3);
  if (suffix === '001') return 'PENDING';
  if (suffix === '002') return 'REJECTED';
  return 'APPROVED';
}

/** Individuals only: fullName suffix 003 asks for the enhanced-due-diligence fields before anything else. */
export const asksForEdd = (fullName: string | undefined): boolean => (fullName ?? '').slice(-3) === '003';

/** The reference service's data set, shared by the service and the orchestrator that addresses it. */
export const REFERENCE_ACCOUNTS = 50;
export const REFERENCE_CUSTOMERS = 1_000;
export const referenceAccountId = (i: number) => `a${(i % REFERENCE_ACCOUNTS) + 1}`;

/** Filled in by the views' author. */
export function LedgerChecksPage() { return <h1>LedgerChecksPage</h1>; }

/** Filled in by the views' author. */
export function AccountsPage() { return <h1>AccountsPage</h1>; }
export function ExternalAccountsPage() { return <h1>ExternalAccountsPage</h1>; }
export function ExternalAccountNewPage() { return <h1>ExternalAccountNewPage</h1>; }

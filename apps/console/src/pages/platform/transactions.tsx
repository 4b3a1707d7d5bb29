/** Filled in by the views' author. */
export function TransactionsPage() { return <h1>TransactionsPage</h1>; }
export function TransactionDetailPage() { return <h1>TransactionDetailPage</h1>; }
export function TransferNewPage() { return <h1>TransferNewPage</h1>; }

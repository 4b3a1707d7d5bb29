/** Filled in by the views' author. */
export function QuotesPage() { return <h1>QuotesPage</h1>; }
export function QuoteDetailPage() { return <h1>QuoteDetailPage</h1>; }

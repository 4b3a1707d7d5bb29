/** Filled in by the views' author. */
export function RatesPage() { return <h1>RatesPage</h1>; }

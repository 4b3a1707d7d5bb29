/** Filled in by the views' author. */
export function FeesPage() { return <h1>FeesPage</h1>; }

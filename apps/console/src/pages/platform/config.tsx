/** Filled in by the views' author. */
export function ConfigPage() { return <h1>ConfigPage</h1>; }

/** Filled in by the views' author. */
export function TokensPage() { return <h1>TokensPage</h1>; }

/** Filled in by the views' author. */
export function HomePage() { return <h1>HomePage</h1>; }

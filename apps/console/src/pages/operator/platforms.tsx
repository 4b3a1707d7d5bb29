/** Filled in by the views' author. */
export function PlatformsPage() { return <h1>PlatformsPage</h1>; }

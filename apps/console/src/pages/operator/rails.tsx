/** Filled in by the views' author. */
export function RailsPage() { return <h1>RailsPage</h1>; }
export function RailFileDetailPage() { return <h1>RailFileDetailPage</h1>; }
export function RailExceptionsPage() { return <h1>RailExceptionsPage</h1>; }

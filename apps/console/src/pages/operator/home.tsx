/** Filled in by the views' author. */
export function OperatorHomePage() { return <h1>OperatorHomePage</h1>; }

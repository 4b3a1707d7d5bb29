/** Filled in by the views' author. */
export function SandboxPage() { return <h1>SandboxPage</h1>; }

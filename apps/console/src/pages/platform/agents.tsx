/** Filled in by the views' author. */
export function AgentsPage() { return <h1>AgentsPage</h1>; }
export function AgentDetailPage() { return <h1>AgentDetailPage</h1>; }
export function ApprovalsPage() { return <h1>ApprovalsPage</h1>; }

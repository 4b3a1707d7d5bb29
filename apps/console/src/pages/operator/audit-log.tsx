/** Filled in by the views' author. */
export function AuditLogPage() { return <h1>AuditLogPage</h1>; }

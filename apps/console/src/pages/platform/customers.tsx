/** Filled in by the views' author. */
export function CustomersPage() { return <h1>CustomersPage</h1>; }
export function CustomerNewPage() { return <h1>CustomerNewPage</h1>; }
export function CustomerDetailPage() { return <h1>CustomerDetailPage</h1>; }

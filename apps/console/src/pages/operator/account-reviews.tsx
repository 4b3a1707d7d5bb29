/** Filled in by the views' author. */
export function AccountReviewsPage() { return <h1>AccountReviewsPage</h1>; }
export function AccountReviewDetailPage() { return <h1>AccountReviewDetailPage</h1>; }
export function VerificationMethodsPage() { return <h1>VerificationMethodsPage</h1>; }

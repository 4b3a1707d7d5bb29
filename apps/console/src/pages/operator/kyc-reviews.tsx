/** Filled in by the views' author. */
export function KycReviewsPage() { return <h1>KycReviewsPage</h1>; }
export function KycReviewDetailPage() { return <h1>KycReviewDetailPage</h1>; }

/** Filled in by the views' author. */
export function CardsPage() { return <h1>CardsPage</h1>; }
export function CardDetailPage() { return <h1>CardDetailPage</h1>; }

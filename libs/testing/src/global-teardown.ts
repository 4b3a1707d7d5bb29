export default async function globalTeardown(): Promise<void> {
  const db = (globalThis as { __embeddedPg?: { stop(): Promise<void> } }).__embeddedPg;
  if (db) await db.stop();
}

/** A row of `rail_files` (rails.migrations.ts): a file a connector wrote (OUTBOUND) or imported (INBOUND). */
export interface RailFileRow {
  file_id: string;
  connector_id: string;
  direction: 'OUTBOUND' | 'INBOUND';
  format: string;
  name: string;
  status: 'WRITING' | 'WRITTEN' | 'IMPORTED';
  sha256: string | null;
  size_bytes: string | null;
  entry_count: number;
  total_amount: string;
  meta: Record<string, unknown>;
  imported_by: string | null;
  created_at: Date;
  written_at: Date | null;
}

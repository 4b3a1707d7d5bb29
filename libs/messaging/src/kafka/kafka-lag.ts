/** A partition's first and next offsets (kafkajs admin.fetchTopicOffsets). */
export interface PartitionEnds {
  partition: number;
  low: string;
  high: string;
}

/**
 * Messages a group has not committed in a topic: per partition the high watermark minus the committed offset. A
 * partition with nothing committed (-1) counts whole for a group that starts from the beginning; a group that starts
 * at the end (a per-instance cache group) has an unknown position until its first commit and counts 0 there.
 */
export function offsetLag(ends: readonly PartitionEnds[], committed: readonly { partition: number; offset: string }[], fromBeginning: boolean): number {
  const at = new Map(committed.map((p) => [p.partition, BigInt(p.offset)]));
  let lag = 0n;
  for (const { partition, low, high } of ends) {
    const offset = at.get(partition) ?? -1n;
    if (offset < 0n) lag += fromBeginning ? BigInt(high) - BigInt(low) : 0n;
    else lag += BigInt(high) > offset ? BigInt(high) - offset : 0n;
  }
  return Number(lag);
}

/** Messages a topic holds now (retention may have removed older ones). */
export function topicMessages(ends: readonly PartitionEnds[]): number {
  return ends.reduce((n, { low, high }) => n + Number(BigInt(high) - BigInt(low)), 0);
}

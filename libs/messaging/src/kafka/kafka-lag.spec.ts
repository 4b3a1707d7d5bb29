import { offsetLag, topicMessages } from './kafka-lag';

describe('Kafka offset lag', () => {
  const ends = [
    { partition: 0, low: '0', high: '10' },
    { partition: 1, low: '5', high: '8' },
    { partition: 2, low: '4', high: '4' },
  ];

  it('sums the high watermark minus the committed offset over partitions', () => {
    expect(offsetLag(ends, [{ partition: 0, offset: '7' }, { partition: 1, offset: '8' }, { partition: 2, offset: '4' }], true)).toBe(3);
  });

  it('counts a partition with nothing committed whole from the beginning, or not at all for a group starting at the end', () => {
    const nothing = [{ partition: 0, offset: '-1' }, { partition: 1, offset: '-1' }];
    expect(offsetLag(ends, nothing, true)).toBe(13);
    expect(offsetLag(ends, nothing, false)).toBe(0);
  });

  it('counts the messages a topic holds after retention (a DLQ)', () => {
    expect(topicMessages(ends)).toBe(13);
  });
});

import { idList } from './id-list';

describe('ids typed in a text area', () => {
  it('splits on lines, commas and spaces, keeping the order and dropping blanks', () => {
    expect(idList('InternalAccount:1\nInternalAccount:2, InternalAccount:3  InternalAccount:4\n\n')).toEqual([
      'InternalAccount:1',
      'InternalAccount:2',
      'InternalAccount:3',
      'InternalAccount:4',
    ]);
  });

  it('reads nothing from an empty or absent value', () => {
    expect(idList('')).toEqual([]);
    expect(idList(undefined)).toEqual([]);
    expect(idList(' \n, ')).toEqual([]);
  });
});

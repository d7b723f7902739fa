import { describe, expect, it } from 'vitest';
import { nearestNames } from '../../src/host/catalog/nearestNames.js';

const NAMES = ['everything__echo', 'example__echo', 'files__list_directory', 'files__read_text_file'];

describe('nearestNames', () => {
  it('a misspelled name without its server prefix is matched on the tool part', () => {
    expect(nearestNames('ecoh', NAMES)).toEqual(['everything__echo', 'example__echo']);
    expect(nearestNames('list_directroy', NAMES)).toEqual(['files__list_directory']);
  });

  it('a bare name spelled right, and a misspelled prefixed one, still find theirs; a far name finds none', () => {
    expect(nearestNames('echo', NAMES)).toEqual(['everything__echo', 'example__echo']);
    expect(nearestNames('everything__ecoh', NAMES)).toEqual(['everything__echo']);
    expect(nearestNames('delete_everything', NAMES)).toEqual([]);
  });
});

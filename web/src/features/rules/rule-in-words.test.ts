import { describe, expect, it } from 'vitest';
import type { SenderRule } from '#contract/api.js';
import { folderLabel, ruleInWords } from './rule-in-words';

const none: SenderRule = { folder: null, keepNewest: null, expireAfterDays: null, expireAction: null };

describe('a rule in words', () => {
  it('names the folder, the messages kept and when old mail goes, in that order', () => {
    expect(
      ruleInWords({
        folder: 'Newsletters',
        folderName: 'Newsletters',
        keepNewest: 5,
        expireAfterDays: 30,
        expireAction: 'trash',
      }),
    ).toBe('→ Newsletters · keeps 5 · removes after 30 days');
    expect(ruleInWords({ ...none, keepNewest: 1 })).toBe('keeps 1');
    expect(ruleInWords({ ...none, expireAfterDays: 1, expireAction: 'archive' })).toBe(
      'archives after 1 day',
    );
    expect(ruleInWords({ ...none, folder: 'Label_42', folderName: 'Receipts' })).toBe('→ Receipts');
  });

  it('says nothing for no rule or one that does nothing', () => {
    expect(ruleInWords(null)).toBeNull();
    expect(ruleInWords(undefined)).toBeNull();
    expect(ruleInWords(none)).toBeNull();
  });

  it("shows a folder's last part when the answer carries no name", () => {
    expect(folderLabel({ folder: 'Archive/2024/News' })).toBe('News');
    expect(folderLabel({ folder: 'News', folderName: '  ' })).toBe('News');
    expect(folderLabel({ folder: null })).toBeNull();
  });
});

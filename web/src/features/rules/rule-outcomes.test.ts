import { describe, expect, it } from 'vitest';
import type { SenderRule } from '#contract/api.js';
import { appliedText, previewText, removedText, undoneText } from './rule-outcomes';

const none: SenderRule = { folder: null, keepNewest: null, expireAfterDays: null, expireAction: null };

describe('what saving a rule did', () => {
  const rule: SenderRule = { ...none, folder: 'Newsletters', folderName: 'Newsletters' };

  it('counts what moved, was trashed or archived', () => {
    expect(appliedText({ moved: 42, trashed: 0, archived: 0 }, rule, 'Shop')).toBe(
      'Moved 42 messages to Newsletters',
    );
    expect(appliedText({ moved: 1, trashed: 3, archived: 0 }, rule, 'Shop')).toBe(
      'Moved 1 message to Newsletters and trashed 3 messages',
    );
    expect(appliedText({ moved: 2, trashed: 1, archived: 4 }, rule, 'Shop')).toBe(
      'Moved 2 messages to Newsletters, trashed 1 message and archived 4 messages',
    );
    expect(appliedText({ moved: 0, trashed: 0, archived: 7 }, none, 'Shop')).toBe('Archived 7 messages');
  });

  it('says the rule was saved when nothing needed doing yet', () => {
    expect(appliedText({ moved: 0, trashed: 0, archived: 0 }, rule, 'Shop')).toBe('Saved the rule for Shop');
  });

  it('says what a removal and an Undo put back', () => {
    expect(removedText('Shop', null)).toBe('Removed the rule for Shop');
    expect(removedText('Shop', 42)).toBe('Removed the rule for Shop and put 42 messages back');
    expect(removedText('Shop', 0)).toBe('Removed the rule for Shop; no mail needed putting back');
    expect(undoneText('Shop', 42, false)).toBe('Undid the rule for Shop, put 42 messages back');
    expect(undoneText('Shop', 0, true)).toBe('Restored the previous rule for Shop');
  });
});

describe('what saving a rule will do (its dry run)', () => {
  const rule: SenderRule = { ...none, folder: 'Label_9', folderName: 'Papers', keepNewest: 2 };

  it('counts each destination out of the messages the rule looked at', () => {
    expect(previewText({ moved: 0, trashed: 15, archived: 0 }, 20, { ...none, keepNewest: 5 })).toBe(
      '15 of 20 messages will go to Trash now.',
    );
    expect(previewText({ moved: 2, trashed: 4, archived: 0 }, 6, rule)).toBe(
      '2 of 6 messages will move to Papers and 4 will go to Trash now.',
    );
    expect(previewText({ moved: 0, trashed: 0, archived: 1 }, 1, rule)).toBe(
      '1 of 1 message will be archived now.',
    );
  });

  it('says when nothing moves yet', () => {
    expect(previewText({ moved: 0, trashed: 0, archived: 0 }, 3, rule)).toBe(
      'Saving moves nothing now; the rule will apply to new mail.',
    );
  });
});

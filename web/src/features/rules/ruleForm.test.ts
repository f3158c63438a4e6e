import { describe, expect, it } from 'vitest';
import { RULE_MESSAGES } from '#contract/api.js';
import { bodyOf, bodyOfRule, formOf, NEW_FOLDER } from './ruleForm';

const blank = formOf(null);

describe('the Organise form', () => {
  it('starts a first rule with nothing chosen and sensible numbers', () => {
    expect(blank).toMatchObject({ moveOn: false, keepOn: false, expireOn: false, keepNewest: '5' });
    expect(bodyOf(blank)).toEqual({ ok: false, field: 'form', message: RULE_MESSAGES.empty });
  });

  it("starts from the sender's rule", () => {
    const form = formOf({ folder: 'News', keepNewest: 3, expireAfterDays: 9, expireAction: 'archive' });
    expect(form).toMatchObject({
      moveOn: true,
      folder: 'News',
      keepOn: true,
      keepNewest: '3',
      expireOn: true,
    });
    expect(bodyOf(form)).toEqual({
      ok: true,
      body: { rule: { folder: 'News', keepNewest: 3, expireAfterDays: 9, expireAction: 'archive' } },
    });
  });

  it('sends a new folder by the name typed, trimmed', () => {
    expect(bodyOf({ ...blank, moveOn: true, folder: NEW_FOLDER, newFolder: '  Newsletters ' })).toEqual({
      ok: true,
      body: { rule: { folder: 'Newsletters', keepNewest: null, expireAfterDays: null, expireAction: null } },
    });
    expect(bodyOf({ ...blank, moveOn: true, folder: NEW_FOLDER, newFolder: '   ' })).toEqual({
      ok: false,
      field: 'folder',
      message: RULE_MESSAGES.folder,
    });
    expect(bodyOf({ ...blank, moveOn: true, folder: NEW_FOLDER, newFolder: 'x'.repeat(201) }).ok).toBe(false);
  });

  it('refuses counts outside their limits, and partial numbers', () => {
    for (const keepNewest of ['0', '101', '2.5', '5x', '', '-1']) {
      expect(bodyOf({ ...blank, keepOn: true, keepNewest })).toEqual({
        ok: false,
        field: 'keepNewest',
        message: RULE_MESSAGES.keepNewest,
      });
    }
    expect(bodyOf({ ...blank, keepOn: true, keepNewest: '100' }).ok).toBe(true);
    expect(bodyOf({ ...blank, expireOn: true, expireAfterDays: '3651' })).toMatchObject({
      ok: false,
      field: 'expireAfterDays',
    });
    expect(bodyOf({ ...blank, expireOn: true, expireAfterDays: '3650', expireAction: 'trash' })).toEqual({
      ok: true,
      body: { rule: { folder: null, keepNewest: null, expireAfterDays: 3650, expireAction: 'trash' } },
    });
  });

  it('leaves out what is switched off, whatever its field holds', () => {
    const result = bodyOf({ ...blank, keepOn: true, keepNewest: '7', expireAfterDays: 'nonsense' });
    expect(result).toEqual({
      ok: true,
      body: { rule: { folder: null, keepNewest: 7, expireAfterDays: null, expireAction: null } },
    });
  });

  it('puts a previous rule back as it was (the Undo of an edit)', () => {
    expect(
      bodyOfRule({
        folder: 'A',
        folderName: 'A',
        keepNewest: null,
        expireAfterDays: 2,
        expireAction: 'trash',
      }),
    ).toEqual({ rule: { folder: 'A', keepNewest: null, expireAfterDays: 2, expireAction: 'trash' } });
  });
});

import { describe, expect, it } from 'vitest';
import { type MailboxFolder, RULE_MESSAGES } from '#contract/api.js';
import { bodyOf, bodyOfRule, fileableFolders, formOf, NEW_FOLDER, type RuleForm } from './rule-form';

const blank = formOf(null);

/** The blank form with one counting part switched on and a number typed in it. */
const withCount = (
  field: 'keepNewest' | 'expireAfterDays',
  text: string,
  form: RuleForm = blank,
): RuleForm => ({
  ...form,
  on: { ...form.on, [field]: true },
  count: { ...form.count, [field]: text },
});

describe('the Organise form', () => {
  it('starts a first rule with nothing chosen and sensible numbers', () => {
    expect(blank).toMatchObject({
      moveOn: false,
      on: { keepNewest: false, expireAfterDays: false },
      count: { keepNewest: '5' },
    });
    expect(bodyOf(blank)).toEqual({ ok: false, field: 'form', message: RULE_MESSAGES.empty });
  });

  it("starts from the sender's rule", () => {
    const form = formOf({ folder: 'News', keepNewest: 3, expireAfterDays: 9, expireAction: 'archive' });
    expect(form).toMatchObject({
      moveOn: true,
      folder: 'News',
      on: { keepNewest: true, expireAfterDays: true },
      count: { keepNewest: '3' },
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
      expect(bodyOf(withCount('keepNewest', keepNewest))).toEqual({
        ok: false,
        field: 'keepNewest',
        message: RULE_MESSAGES.keepNewest,
      });
    }
    expect(bodyOf(withCount('keepNewest', '100')).ok).toBe(true);
    expect(bodyOf(withCount('expireAfterDays', '3651'))).toMatchObject({
      ok: false,
      field: 'expireAfterDays',
    });
    expect(bodyOf({ ...withCount('expireAfterDays', '3650'), expireAction: 'trash' })).toEqual({
      ok: true,
      body: { rule: { folder: null, keepNewest: null, expireAfterDays: 3650, expireAction: 'trash' } },
    });
  });

  it('leaves out what is switched off, whatever its field holds', () => {
    const result = bodyOf(
      withCount('keepNewest', '7', { ...blank, count: { ...blank.count, expireAfterDays: 'nonsense' } }),
    );
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

describe('the folders a rule can file into', () => {
  const folder = (path: string, specialUse: string | null = null, name = path): MailboxFolder => ({
    path,
    name,
    specialUse,
  });

  it('leaves out the inbox, the Screener and the special folders, by name', () => {
    const listed = fileableFolders([
      folder('INBOX', '\\Inbox'),
      folder('Trash', '\\Trash'),
      folder('Junk', '\\Junk'),
      folder('Sent', '\\Sent'),
      folder('Screener'),
      folder('Receipts'),
      folder('Archive', '\\Archive'),
      folder('Newsletters'),
    ]);
    expect(listed.map((f) => f.path)).toEqual(['Archive', 'Newsletters', 'Receipts']);
  });
});

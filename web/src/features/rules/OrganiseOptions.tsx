// The three options of the Organise dialog (OrganiseDialog.tsx), each a switch that opens its fields: move
// the sender's mail to a folder, keep only its newest N, remove it after N days.
import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { RULE_LIMITS } from '#contract/api.js';
import type { useMailboxFolders } from './api/mailbox-folders';
import { NEW_FOLDER, type RuleField, type RuleForm } from './ruleForm';
import type { fileableFolders } from './ruleWords';

/** What every option gets from the form: its fields, a way to change them, and which field is wrong. */
export interface OptionProps {
  form: RuleForm;
  set: (patch: Partial<RuleForm>) => void;
  busy: boolean;
  invalid: (field: RuleField) => boolean;
  /** The error's id for a field that is wrong, else undefined. */
  describedBy: (field: RuleField) => string | undefined;
}

interface MoveOptionProps extends OptionProps {
  folders: ReturnType<typeof useMailboxFolders>;
  choices: ReturnType<typeof fileableFolders>;
  /** The folder picked (or NEW_FOLDER). */
  folderChoice: string;
  /** A rule's folder the list does not show (not loaded yet, or gone): choosable under its name. */
  missing: { path: string; name: string } | null;
}

/** "Move to folder": a mailbox's folder, or a new one by name. */
export function MoveOption({
  form,
  set,
  busy,
  invalid,
  describedBy,
  folders,
  choices,
  folderChoice,
  missing,
}: MoveOptionProps) {
  const ids = { move: useId(), folder: useId(), newFolder: useId() };
  return (
    <fieldset className="organise-option" disabled={busy}>
      <Form.Check
        id={ids.move}
        type="switch"
        role="switch"
        label="Move to folder"
        checked={form.moveOn}
        onChange={(e) => set({ moveOn: e.target.checked })}
      />
      {form.moveOn && (
        <div className="organise-fields">
          <Form.Label htmlFor={ids.folder} className="small mb-1">
            Folder
          </Form.Label>
          <Form.Select
            id={ids.folder}
            value={folderChoice}
            isInvalid={invalid('folder')}
            aria-describedby={describedBy('folder')}
            onChange={(e) => set({ folder: e.target.value })}
          >
            {missing && <option value={missing.path}>{missing.name}</option>}
            {choices.map((f) => (
              <option key={f.path} value={f.path}>
                {f.name}
              </option>
            ))}
            <option value={NEW_FOLDER}>New folder…</option>
          </Form.Select>
          <FolderListState folders={folders} />
          {folderChoice === NEW_FOLDER && (
            <>
              <Form.Label htmlFor={ids.newFolder} className="small mb-1 mt-2">
                New folder name
              </Form.Label>
              <Form.Control
                id={ids.newFolder}
                value={form.newFolder}
                maxLength={RULE_LIMITS.folderName}
                autoComplete="off"
                placeholder="Newsletters"
                isInvalid={invalid('folder')}
                aria-describedby={describedBy('folder')}
                // Pinned to "New folder…": the folders arriving later do not switch the picker away.
                onChange={(e) => set({ newFolder: e.target.value, folder: NEW_FOLDER })}
              />
            </>
          )}
        </div>
      )}
    </fieldset>
  );
}

/** Under the picker: the mailbox's folders loading, or why they could not be listed. */
function FolderListState({ folders }: { folders: ReturnType<typeof useMailboxFolders> }) {
  return (
    <>
      {folders.isPending && (
        <div className="small text-muted mt-1">
          <Spinner animation="border" size="sm" className="me-1" aria-hidden="true" />
          Loading the mailbox's folders…
        </div>
      )}
      {folders.isError && (
        <div className="small text-muted mt-1">
          Could not list the folders; you can still name a new one.{' '}
          <Button
            variant="link"
            size="sm"
            className="p-0 align-baseline"
            onClick={() => void folders.refetch()}
          >
            Try again
          </Button>
        </div>
      )}
    </>
  );
}

/** "Keep only the newest": how many messages. */
export function KeepOption({ form, set, busy, invalid, describedBy }: OptionProps) {
  const ids = { keep: useId(), keepNewest: useId() };
  return (
    <fieldset className="organise-option" disabled={busy}>
      <Form.Check
        id={ids.keep}
        type="switch"
        role="switch"
        label="Keep only the newest"
        checked={form.keepOn}
        onChange={(e) => set({ keepOn: e.target.checked })}
      />
      {form.keepOn && (
        <div className="organise-fields organise-inline">
          <Form.Label htmlFor={ids.keepNewest} className="small mb-0">
            Messages to keep
          </Form.Label>
          <Form.Control
            id={ids.keepNewest}
            type="number"
            inputMode="numeric"
            className="organise-number"
            min={RULE_LIMITS.keepNewest.min}
            max={RULE_LIMITS.keepNewest.max}
            value={form.keepNewest}
            isInvalid={invalid('keepNewest')}
            aria-describedby={describedBy('keepNewest')}
            onChange={(e) => set({ keepNewest: e.target.value })}
          />
        </div>
      )}
    </fieldset>
  );
}

/** "Remove after a number of days": how many, then to the Trash or the archive. */
export function ExpireOption({ form, set, busy, invalid, describedBy }: OptionProps) {
  const ids = { expire: useId(), expireDays: useId() };
  return (
    <fieldset className="organise-option" disabled={busy}>
      <Form.Check
        id={ids.expire}
        type="switch"
        role="switch"
        label="Remove after a number of days"
        checked={form.expireOn}
        onChange={(e) => set({ expireOn: e.target.checked })}
      />
      {form.expireOn && (
        <div className="organise-fields">
          <div className="organise-inline">
            <Form.Label htmlFor={ids.expireDays} className="small mb-0">
              Days
            </Form.Label>
            <Form.Control
              id={ids.expireDays}
              type="number"
              inputMode="numeric"
              className="organise-number"
              min={RULE_LIMITS.expireAfterDays.min}
              max={RULE_LIMITS.expireAfterDays.max}
              value={form.expireAfterDays}
              isInvalid={invalid('expireAfterDays')}
              aria-describedby={describedBy('expireAfterDays')}
              onChange={(e) => set({ expireAfterDays: e.target.value })}
            />
          </div>
          <fieldset className="mt-2">
            <legend className="small mb-1 fs-6">Then</legend>
            <Form.Check
              inline
              type="radio"
              id={`${ids.expire}-trash`}
              name={`${ids.expire}-action`}
              label="Move to Trash"
              checked={form.expireAction === 'trash'}
              onChange={() => set({ expireAction: 'trash' })}
            />
            <Form.Check
              inline
              type="radio"
              id={`${ids.expire}-archive`}
              name={`${ids.expire}-action`}
              label="Archive"
              checked={form.expireAction === 'archive'}
              onChange={() => set({ expireAction: 'archive' })}
            />
          </fieldset>
        </div>
      )}
    </fieldset>
  );
}

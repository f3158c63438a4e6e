// The options of the Organise dialog (organise-dialog.tsx), each a switch that opens its fields: move the
// sender's mail to a folder, and one per counting part of the contract's table (keep only its newest N,
// remove it after N days), with that part's labels and limits.
import { type ReactNode, useId } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { COUNT_PARTS, type CountField, FOLDER_PART } from '#contract/rule-parts.js';
import type { useMailboxFolders } from './api/mailbox-folders';
import { type fileableFolders, NEW_FOLDER, type RuleField, type RuleForm } from './rule-form';

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
        label={FOLDER_PART.label}
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
                maxLength={FOLDER_PART.maxLength}
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

/**
 * A counting part of the rule (contract/rule-parts.ts): its switch, and once on, its number within the
 * part's limits, then whatever else the part asks (`children`).
 */
function CountOption({
  field,
  form,
  set,
  busy,
  invalid,
  describedBy,
  inline = true,
  children,
}: OptionProps & { field: CountField; inline?: boolean; children?: ReactNode }) {
  const ids = { on: useId(), count: useId() };
  const part = COUNT_PARTS[field];
  const number = (
    <div className="organise-fields organise-inline">
      <Form.Label htmlFor={ids.count} className="small mb-0">
        {part.input}
      </Form.Label>
      <Form.Control
        id={ids.count}
        type="number"
        inputMode="numeric"
        className="organise-number"
        min={part.min}
        max={part.max}
        value={form.count[field]}
        isInvalid={invalid(field)}
        aria-describedby={describedBy(field)}
        onChange={(e) => set({ count: { ...form.count, [field]: e.target.value } })}
      />
    </div>
  );
  return (
    <fieldset className="organise-option" disabled={busy}>
      <Form.Check
        id={ids.on}
        type="switch"
        role="switch"
        label={part.label}
        checked={form.on[field]}
        onChange={(e) => set({ on: { ...form.on, [field]: e.target.checked } })}
      />
      {form.on[field] &&
        (inline ? (
          number
        ) : (
          <div className="organise-fields">
            {number}
            {children}
          </div>
        ))}
    </fieldset>
  );
}

/** "Keep only the newest": how many messages. */
export function KeepOption(props: OptionProps) {
  return <CountOption field="keepNewest" {...props} />;
}

/** "Remove after a number of days": how many, then to the Trash or the archive. */
export function ExpireOption(props: OptionProps) {
  const { form, set } = props;
  const id = useId();
  return (
    <CountOption field="expireAfterDays" inline={false} {...props}>
      <fieldset className="mt-2">
        <legend className="small mb-1 fs-6">Then</legend>
        <Form.Check
          inline
          type="radio"
          id={`${id}-trash`}
          name={`${id}-action`}
          label="Move to Trash"
          checked={form.expireAction === 'trash'}
          onChange={() => set({ expireAction: 'trash' })}
        />
        <Form.Check
          inline
          type="radio"
          id={`${id}-archive`}
          name={`${id}-action`}
          label="Archive"
          checked={form.expireAction === 'archive'}
          onChange={() => set({ expireAction: 'archive' })}
        />
      </fieldset>
    </CountOption>
  );
}

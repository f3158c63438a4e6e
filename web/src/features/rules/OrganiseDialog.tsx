// The Organise dialog (a row's "Organise…", a rule's Edit on the Rules screen): file the sender's mail in
// a folder, keep only its newest N, remove it after N days; any of them together. Loaded on first use
// (the list's first load has a budget). Every field has its label; the modal keeps focus inside and
// Escape closes it; at a phone's width the fields stack.
import { type FormEvent, useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { RULE_LIMITS, RULE_MESSAGES } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { isStatus, messageOf, wasAlerted } from '../../lib/api-client';
import { useMailboxFolders } from './api/mailbox-folders';
import { bodyOf, formOf, NEW_FOLDER, type RuleField, type RuleForm } from './ruleForm';
import { ruleInWords } from './ruleInWords';
import { fileableFolders } from './ruleWords';
import { type RuleTarget, senderOf, useRuleActions } from './useRuleActions';
import './rules.css';

interface OrganiseDialogProps {
  /** The sender to organise; null: the dialog is closed. */
  target: RuleTarget | null;
  onClose: () => void;
}

export default function OrganiseDialog({ target, onClose }: OrganiseDialogProps) {
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      show={target !== null}
      onHide={busy ? undefined : onClose}
      centered
      aria-labelledby={titleId}
      className="organise-dialog"
    >
      {target && (
        <OrganiseForm
          // A new sender starts from its own rule, not the last one's fields.
          key={target.subscriptionId}
          target={target}
          titleId={titleId}
          busy={busy}
          setBusy={setBusy}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

interface Failure {
  field: RuleField;
  message: string;
  /** A 402: rules need a plan. */
  premium?: boolean;
}

function OrganiseForm({
  target,
  titleId,
  busy,
  setBusy,
  onClose,
}: {
  target: RuleTarget;
  titleId: string;
  busy: boolean;
  setBusy: (busy: boolean) => void;
  onClose: () => void;
}) {
  const ids = {
    move: useId(),
    folder: useId(),
    newFolder: useId(),
    keep: useId(),
    keepNewest: useId(),
    expire: useId(),
    expireDays: useId(),
    error: useId(),
  };
  const folders = useMailboxFolders(target.account);
  const [form, setForm] = useState<RuleForm>(() => formOf(target.rule));
  const [failure, setFailure] = useState<Failure | null>(null);
  const { save, remove } = useRuleActions();
  const choices = fileableFolders(folders.data ?? []);
  // A rule's folder the list does not show (not loaded yet, or gone) stays choosable under its name.
  const ruleFolder = target.rule?.folder ?? null;
  const missing = ruleFolder !== null && !choices.some((f) => f.path === ruleFolder);
  const set = (patch: Partial<RuleForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    setFailure(null);
  };
  const folderChoice = form.folder || (choices[0]?.path ?? NEW_FOLDER);

  function failedCall(error: unknown, fallback: string) {
    if (wasAlerted(error)) return;
    if (isStatus(error, 402)) {
      setFailure({ field: 'form', message: messageOf(error, RULE_MESSAGES.premium), premium: true });
      return;
    }
    const message = messageOf(error, fallback);
    setFailure({ field: message === RULE_MESSAGES.folderGone ? 'folder' : 'form', message });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = bodyOf({ ...form, folder: folderChoice });
    if (!result.ok) {
      setFailure({ field: result.field, message: result.message });
      return;
    }
    setBusy(true);
    try {
      await save(target, result.body);
      onClose();
    } catch (error) {
      failedCall(error, 'Failed to save the rule. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  async function removeRule(restore: boolean) {
    setBusy(true);
    try {
      await remove(target, restore);
      onClose();
    } catch (error) {
      failedCall(error, 'Failed to remove the rule. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const invalid = (field: RuleField) => failure?.field === field;
  const describedBy = (field: RuleField) => (invalid(field) ? ids.error : undefined);
  const current = ruleInWords(target.rule);

  return (
    <Form noValidate onSubmit={submit} aria-describedby={failure ? ids.error : undefined}>
      <Modal.Header closeButton={!busy}>
        <Modal.Title id={titleId} className="text-break">
          Organise {senderOf(target)}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small text-muted mb-3 text-break">
          {target.address} · {target.account}
          {current && (
            <>
              <br />
              Now: {current}
            </>
          )}
        </p>

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
                {missing && ruleFolder && (
                  <option value={ruleFolder}>{target.rule?.folderName ?? ruleFolder}</option>
                )}
                {choices.map((f) => (
                  <option key={f.path} value={f.path}>
                    {f.name}
                  </option>
                ))}
                <option value={NEW_FOLDER}>New folder…</option>
              </Form.Select>
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

        {failure && (
          <Alert
            variant={failure.premium ? 'warning' : 'danger'}
            id={ids.error}
            className="mb-0 mt-3 small"
            role="alert"
          >
            {failure.message}
            {failure.premium && (
              <>
                {' '}
                <Link to={SCREENS.pricing} onClick={onClose} className="alert-link">
                  See the plans
                </Link>
              </>
            )}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer className="organise-footer">
        {target.rule && (
          <div className="organise-remove">
            <Button variant="outline-danger" size="sm" disabled={busy} onClick={() => void removeRule(false)}>
              Remove rule
            </Button>
            <Button variant="outline-danger" size="sm" disabled={busy} onClick={() => void removeRule(true)}>
              Remove rule and put mail back
            </Button>
          </div>
        )}
        <div className="organise-save">
          <Button variant="secondary" disabled={busy} onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </Button>
        </div>
      </Modal.Footer>
    </Form>
  );
}

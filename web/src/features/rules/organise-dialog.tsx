// The Organise dialog (a row's "Organise…", a rule's Edit on the Rules screen): file the sender's mail in
// a folder, keep only its newest N, remove it after N days; any of them together. Loaded on first use
// (the list's first load has a budget). Every field has its label; the modal keeps focus inside and
// Escape closes it; at a phone's width the fields stack. The options' fields are organise-options.tsx.
import { type FormEvent, useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Link } from 'react-router';
import { RULE_MESSAGES } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { isStatus, messageOf } from '../../lib/api-client';
import { useMailboxFolders } from './api/mailbox-folders';
import { type RulePreview, useRulePreview } from './api/rule-preview';
import { ExpireOption, KeepOption, MoveOption } from './organise-options';
import { bodyOf, fileableFolders, formOf, NEW_FOLDER, type RuleField, type RuleForm } from './rule-form';
import { ruleInWords } from './rule-in-words';
import { previewText } from './rule-outcomes';
import { type RuleTarget, senderOf, useRuleActions } from './use-rule-actions';
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

/**
 * The form's fields and what went wrong, and its two calls: `submit` saves the rule (once the fields are
 * right), `removeRule` removes it (`restore`: and puts the mail back). Either closes the dialog once done.
 */
function useOrganiseForm(target: RuleTarget, setBusy: (busy: boolean) => void, onClose: () => void) {
  const folders = useMailboxFolders(target.account);
  const [form, setForm] = useState<RuleForm>(() => formOf(target.rule));
  const [failure, setFailure] = useState<Failure | null>(null);
  const { save, remove } = useRuleActions();
  const choices = fileableFolders(folders.data ?? []);
  const set = (patch: Partial<RuleForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    setFailure(null);
  };
  const folderChoice = form.folder || (choices[0]?.path ?? NEW_FOLDER);

  function failedCall(error: unknown, fallback: string) {
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

  // What saving would do now, asked while the fields hold a rule the server would take.
  const checked = bodyOf({ ...form, folder: folderChoice });
  const preview = useRulePreview(target.subscriptionId, checked.ok ? checked.body : null);

  return { folders, choices, form, set, folderChoice, failure, submit, removeRule, preview };
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
  const errorId = useId();
  const { folders, choices, form, set, folderChoice, failure, submit, removeRule, preview } = useOrganiseForm(
    target,
    setBusy,
    onClose,
  );
  // A rule's folder the list does not show (not loaded yet, or gone) stays choosable under its name.
  const ruleFolder = target.rule?.folder ?? null;
  const missing =
    ruleFolder !== null && !choices.some((f) => f.path === ruleFolder)
      ? { path: ruleFolder, name: target.rule?.folderName ?? ruleFolder }
      : null;
  const invalid = (field: RuleField) => failure?.field === field;
  const option = {
    form,
    set,
    busy,
    invalid,
    describedBy: (field: RuleField) => (invalid(field) ? errorId : undefined),
  };
  const current = ruleInWords(target.rule);

  return (
    <Form noValidate onSubmit={submit} aria-describedby={failure ? errorId : undefined}>
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
        <MoveOption
          {...option}
          folders={folders}
          choices={choices}
          folderChoice={folderChoice}
          missing={missing}
        />
        <KeepOption {...option} />
        <ExpireOption {...option} />
        {failure ? (
          <FailureAlert id={errorId} failure={failure} onClose={onClose} />
        ) : (
          <PreviewLine preview={preview} />
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

/**
 * What saving will do to the sender's mail now ("15 of 20 messages will go to Trash now"), read politely by
 * screen readers as it changes. A refusal (a plan needed, a blocked sender) is Save's to explain.
 */
function PreviewLine({ preview }: { preview: RulePreview }) {
  let text: string | null = null;
  if (preview.state === 'checking') text = 'Checking what saving will do…';
  if (preview.state === 'ready')
    text = previewText(preview.answer.applied, preview.answer.examined ?? 0, preview.answer.rule);
  if (preview.state === 'failed' && preview.status !== null && preview.status >= 500) text = preview.message;
  return (
    <p className="small mb-0 mt-3 organise-preview" aria-live="polite">
      {text}
    </p>
  );
}

/** What went wrong, under the options; a 402 links to the plans. */
function FailureAlert({ id, failure, onClose }: { id: string; failure: Failure; onClose: () => void }) {
  return (
    <Alert variant={failure.premium ? 'warning' : 'danger'} id={id} className="mb-0 mt-3 small" role="alert">
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
  );
}

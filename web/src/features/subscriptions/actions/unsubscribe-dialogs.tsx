// The unsubscribe flow's dialogs (docs/product.md §4, §8), loaded with the first one shown. The two manual
// ones name the sender and the host its link opens (docs/decisions/105-words-that-cannot-be-misread.md): what
// the sender wrote is shown as text only, and the host is the URL parser's reading (unsubscribe-flow.ts).
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import Form from 'react-bootstrap/Form';
import type { Subscription } from '#contract/api.js';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { loadPlanLimitDialog } from '../../billing';
import { senderName } from '../list/list-model';
import { type AfterOpen, linkDomain } from './unsubscribe-flow';

const PlanLimitDialog = lazy(loadPlanLimitDialog);

/** The dialog the flow shows, if any. */
export type FlowDialog =
  | { kind: 'none' }
  | { kind: 'reauth'; authUrl: string; reason?: string }
  | { kind: 'manual'; item: Subscription; url: string; options: string[] | null; next: AfterOpen }
  /** Did the sender's page at `url` work? */
  | { kind: 'confirm'; item: Subscription; url: string }
  /** After "Not Yet": Block offered instead (the block call, which may ask its own 409 question). */
  | { kind: 'not-yet'; item: Subscription; url: string }
  /** A 402: the free trial's limit, with the server's reason and the plans. */
  | { kind: 'plan'; message: string }
  /** The unsubscribe email could not be sent: the server's message, and Block as the user's choice. */
  | { kind: 'offer-block'; item: Subscription; message: string }
  /** A block would trash mail without list headers too: the server's count, Block anyway or not. */
  | {
      kind: 'confirm-block';
      item: Subscription;
      message: string;
      via: 'unsubscribe' | 'block';
      moveToTrash?: boolean;
    };

type Shown<K extends FlowDialog['kind']> = Extract<FlowDialog, { kind: K }>;

/** What the dialogs' buttons do (use-subscription-actions.tsx). */
export interface FlowHandlers {
  close: () => void;
  reauthenticate: (authUrl: string) => void;
  openManual: (shown: Shown<'manual'>, dontRemind: boolean) => void;
  cancelManual: (dontRemind: boolean) => void;
  offerBlock: (item: Subscription) => void;
  confirmBlock: (shown: Shown<'confirm-block'>) => void;
  confirmYes: (item: Subscription, dontRemind: boolean) => void;
  /** "Not Yet": the page did not work (yet); Block is offered next, as the way that needs no page. */
  confirmNotYet: (shown: Shown<'confirm'>, dontRemind: boolean) => void;
}

/** The 'Don't remind me' checkbox of the two unsubscribe dialogs; unticked whenever a dialog opens. */
function useDontRemind(show: boolean) {
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    if (show) setChecked(false);
  }, [show]);
  return [checked, setChecked] as const;
}

function DontRemind({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <Form.Check
      type="checkbox"
      id={id}
      className="mt-3"
      label="Don't remind me"
      checked={checked}
      onChange={(e) => onChange(e.target.checked)}
    />
  );
}

/** "The Daily (news@daily.example)" and "a page at list-manage.com", as both manual dialogs say them. */
function SenderAndPage({ item, url }: { item: Subscription | null; url: string }) {
  if (!item) return null;
  const name = senderName(item);
  const host = linkDomain(url);
  return (
    <dl className="unsubscribe-target small mt-2 mb-0">
      <dt className="d-inline">Sender: </dt>
      <dd className="d-inline text-break">
        {name}
        {name !== item.address && <span className="text-muted"> ({item.address})</span>}
      </dd>
      <br />
      <dt className="d-inline">Page at: </dt>
      <dd className="d-inline text-break fw-semibold unsubscribe-host">
        {host || 'an address we cannot read'}
      </dd>
    </dl>
  );
}

interface ManualUnsubscribeDialogProps {
  show: boolean;
  /** The sender, and the link Open Link opens (named by its host). */
  item: Subscription | null;
  url: string;
  /** The sender's unsubscribe pages, listed when no confirmation follows; null lists none. */
  options: string[] | null;
  /** `dontRemind`: the user ticked 'Don't remind me'. */
  onOpen: (dontRemind: boolean) => void;
  onCancel: (dontRemind: boolean) => void;
}

/** docs/product.md §4: Manual Unsubscription Required — open the sender's page? */
export function ManualUnsubscribeDialog({
  show,
  item,
  url,
  options,
  onOpen,
  onCancel,
}: ManualUnsubscribeDialogProps) {
  const [dontRemind, setDontRemind] = useDontRemind(show);
  return (
    <ConfirmDialog
      show={show}
      title="Manual Unsubscription Required"
      confirmLabel="Open Link"
      onConfirm={() => onOpen(dontRemind)}
      onCancel={() => onCancel(dontRemind)}
    >
      <p className="mb-0">Manual unsubscription required. Open the webpage to unsubscribe?</p>
      <SenderAndPage item={item} url={url} />
      {options && options.length > 0 && (
        <ul className="unsubscribe-options small mt-2 mb-0">
          {options.map((option) => (
            <li key={option} className="text-break">
              {option}
            </li>
          ))}
        </ul>
      )}
      <DontRemind checked={dontRemind} onChange={setDontRemind} />
    </ConfirmDialog>
  );
}

interface UnsubscribeConfirmDialogProps {
  show: boolean;
  item: Subscription | null;
  url: string;
  onYes: (dontRemind: boolean) => void;
  onNotYet: (dontRemind: boolean) => void;
}

/** docs/product.md §4: Unsubscription Confirmation — did the sender's page do it? */
export function UnsubscribeConfirmDialog({
  show,
  item,
  url,
  onYes,
  onNotYet,
}: UnsubscribeConfirmDialogProps) {
  const [dontRemind, setDontRemind] = useDontRemind(show);
  return (
    <ConfirmDialog
      show={show}
      title="Unsubscription Confirmation"
      confirmLabel="Yes, Unsubscribed"
      cancelLabel="Not Yet"
      onConfirm={() => onYes(dontRemind)}
      onCancel={() => onNotYet(dontRemind)}
    >
      <p className="mb-0">Did you successfully unsubscribe from the newsletter?</p>
      <SenderAndPage item={item} url={url} />
      <DontRemind checked={dontRemind} onChange={setDontRemind} />
    </ConfirmDialog>
  );
}

interface ReauthDialogProps {
  show: boolean;
  /** The server's words on which mailbox needs signing in again, shown under the spec's text. */
  reason?: string;
  onReauthenticate: () => void;
  onCancel: () => void;
}

/** docs/product.md §8: Re-authentication Required — the mailbox's grant expired. */
export function ReauthDialog({ show, reason, onReauthenticate, onCancel }: ReauthDialogProps) {
  return (
    <ConfirmDialog
      show={show}
      title="Re-authentication Required"
      confirmLabel="Re-authenticate"
      onConfirm={onReauthenticate}
      onCancel={onCancel}
    >
      <p className="mb-0">Your session has expired. Please re-authenticate to continue using the product.</p>
      {reason && <p className="mb-0 mt-2 text-muted reauth-reason">{reason}</p>}
    </ConfirmDialog>
  );
}

/** Every dialog of the flow, each shown when `dialog` is its kind. */
export default function FlowDialogs({ dialog, on }: { dialog: FlowDialog; on: FlowHandlers }) {
  return (
    <>
      <ReauthDialog
        show={dialog.kind === 'reauth'}
        reason={dialog.kind === 'reauth' ? dialog.reason : undefined}
        onReauthenticate={() => (dialog.kind === 'reauth' ? on.reauthenticate(dialog.authUrl) : on.close())}
        onCancel={on.close}
      />
      <ManualUnsubscribeDialog
        show={dialog.kind === 'manual'}
        item={dialog.kind === 'manual' ? dialog.item : null}
        url={dialog.kind === 'manual' ? dialog.url : ''}
        options={dialog.kind === 'manual' ? dialog.options : null}
        onOpen={(dontRemind) => (dialog.kind === 'manual' ? on.openManual(dialog, dontRemind) : on.close())}
        onCancel={on.cancelManual}
      />
      <ConfirmDialog
        show={dialog.kind === 'offer-block'}
        title="Unsubscribe email not sent"
        confirmLabel="Block sender"
        danger
        onConfirm={() => (dialog.kind === 'offer-block' ? on.offerBlock(dialog.item) : on.close())}
        onCancel={on.close}
      >
        <p className="mb-0">{dialog.kind === 'offer-block' ? dialog.message : ''}</p>
      </ConfirmDialog>
      <ConfirmDialog
        show={dialog.kind === 'confirm-block'}
        title="Block this sender?"
        confirmLabel="Block anyway"
        danger
        onConfirm={() => (dialog.kind === 'confirm-block' ? on.confirmBlock(dialog) : on.close())}
        onCancel={on.close}
      >
        <p className="mb-0">{dialog.kind === 'confirm-block' ? dialog.message : ''}</p>
      </ConfirmDialog>
      <UnsubscribeConfirmDialog
        show={dialog.kind === 'confirm'}
        item={dialog.kind === 'confirm' ? dialog.item : null}
        url={dialog.kind === 'confirm' ? dialog.url : ''}
        onYes={(dontRemind) =>
          dialog.kind === 'confirm' ? on.confirmYes(dialog.item, dontRemind) : on.close()
        }
        onNotYet={(dontRemind) =>
          dialog.kind === 'confirm' ? on.confirmNotYet(dialog, dontRemind) : on.close()
        }
      />
      <NotYetDialog dialog={dialog.kind === 'not-yet' ? dialog : null} on={on} />
      {dialog.kind === 'plan' && (
        <Suspense fallback={null}>
          <PlanLimitDialog show message={dialog.message} onClose={on.close} />
        </Suspense>
      )}
    </>
  );
}

/**
 * After "Not Yet": the sender's page did not (yet) work. Block is offered as the way that needs no page: the
 * sender's mail goes to the Trash as the row's Block does (the block call, which asks again when mail
 * without list headers would go too).
 */
function NotYetDialog({ dialog, on }: { dialog: Shown<'not-yet'> | null; on: FlowHandlers }) {
  const name = dialog ? senderName(dialog.item) : '';
  const host = dialog ? linkDomain(dialog.url) : '';
  return (
    <ConfirmDialog
      show={dialog !== null}
      title={`Not unsubscribed from ${name} yet?`}
      confirmLabel="Block sender"
      cancelLabel="Close"
      danger
      onConfirm={() => (dialog ? on.offerBlock(dialog.item) : on.close())}
      onCancel={on.close}
    >
      <p className="mb-2">
        If the page{host ? ` at ${host}` : ''} did not unsubscribe you, you can block {name} instead: its
        mail, what is there now and what comes later, goes to the Trash. You can undo it.
      </p>
      <p className="mb-0 text-muted small">Or close this and try the page again later from the list.</p>
    </ConfirmDialog>
  );
}

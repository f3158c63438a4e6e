// The ACTIONS of the subscription list (docs/product.md §4 Keep, Unsubscribe flow): the per-row busy flags,
// the calls (mutations.ts), and the dialogs of the unsubscribe flow. The flow's decisions live in
// unsubscribeFlow.ts. A 403 or 402 needs nothing here: the query client sends every one to the sign-in page
// or to /pricing.
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import type {
  SettingsUpdate,
  Subscription,
  SubscriptionCategory,
  UnsubscribeResult,
} from '../../../../contract/api.js';
import { ALERTS } from '../../../../contract/validation.js';
import { ApiError, isStatus, redirectUrlOf } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useGoTo } from '../../navigation';
import { currentSettings as loadSettings, useSettings, useUpdateSettings } from '../settings/queries';
import { useSubscriptionMutations } from './mutations';
import { ManualUnsubscribeDialog, ReauthDialog, UnsubscribeConfirmDialog } from './UnsubscribeDialogs';
import {
  type AfterOpen,
  DEFAULT_ALERT_SETTINGS,
  failureStep,
  nextUnsubscribeStep,
  type Reminder,
  withoutReminder,
} from './unsubscribeFlow';

type Dialog =
  | { kind: 'none' }
  | { kind: 'reauth'; authUrl: string }
  | { kind: 'manual'; item: Subscription; url: string; options: string[] | null; next: AfterOpen }
  | { kind: 'confirm'; item: Subscription }
  /** The unsubscribe email could not be sent: the server's message, and Block as the user's choice. */
  | { kind: 'offer-block'; item: Subscription; message: string }
  /** A block would trash mail without list headers too: the server's count, Block anyway or not. */
  | { kind: 'confirm-block'; item: Subscription; message: string; via: 'unsubscribe' | 'block' };

const NO_DIALOG: Dialog = { kind: 'none' };

/** The sender's page in a new tab, with no way back to this one. */
function openLink(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

export interface SubscriptionActions {
  /** Ids of the rows whose action is running. */
  busyRows: ReadonlySet<string>;
  keep: (item: Subscription) => Promise<void>;
  unsubscribe: (item: Subscription) => Promise<void>;
  /** Blocks a sender (asking first when some of its mail has no list headers); onChanged gets the result. */
  block: (item: Subscription) => Promise<void>;
  /** The flow's dialogs, to be rendered once by the screen. */
  dialogs: ReactNode;
}

/** The server's reason of a 502 offering Block, or of a 409 asking to confirm a block; null otherwise. */
function blockQuestion(error: unknown, status: 502 | 409): string | null {
  if (!(error instanceof ApiError) || error.status !== status) return null;
  const body = error.body as { offerBlock?: unknown; confirmBlock?: unknown } | undefined;
  const flagged = status === 502 ? body?.offerBlock === true : body?.confirmBlock === true;
  return flagged && error.message ? error.message : null;
}

/**
 * The actions on the rows of the `category` list. Their answers update the cached lists (docs/product.md §4: the
 * item leaves the current list; a blocked item moves to Unsubscribed): see mutations.ts.
 */
export function useSubscriptionActions(category: SubscriptionCategory): SubscriptionActions {
  const goTo = useGoTo();
  const queryClient = useQueryClient();
  const calls = useSubscriptionMutations(category);
  const saveSettings = useUpdateSettings();
  const [busyRows, setBusyRows] = useState<ReadonlySet<string>>(new Set());
  const busyNow = useRef(new Set<string>());
  const [dialog, setDialog] = useState<Dialog>(NO_DIALOG);
  // The alert settings are fetched when the list opens, so that the flow rarely has to wait for them.
  useSettings();

  /** The alert settings (defaults when they could not be fetched); a pending fetch is awaited. */
  async function currentSettings(): Promise<SettingsUpdate> {
    return { ...DEFAULT_ALERT_SETTINGS, ...(await loadSettings(queryClient)) };
  }

  const setBusy = useCallback((id: string, on: boolean) => {
    if (on) busyNow.current.add(id);
    else busyNow.current.delete(id);
    setBusyRows(new Set(busyNow.current));
  }, []);

  /** docs/product.md §8 for a failed call: redirect, pricing, sign-in, or an alert (`texts` by kind of failure). */
  function fail(error: unknown, texts: { error: string; failed: string }) {
    const status = error instanceof ApiError && error.status > 0 ? error.status : null;
    const step = failureStep(status, redirectUrlOf(error));
    if (step.kind === 'redirect') return goTo(step.url);
    // Sign-in (403) and pricing (402) are the query client's answer to every call (api/queryClient.ts).
    if (step.kind === 'navigate') return;
    console.warn(texts.error, error);
    window.alert(step.alert === 'rateLimited' ? ALERTS.rateLimited : texts[step.alert]);
  }

  async function keep(item: Subscription) {
    if (busyNow.current.has(item.id)) return;
    setBusy(item.id, true);
    try {
      await calls.keep.mutateAsync(item);
    } catch (error) {
      if (isStatus(error, 403)) return;
      console.warn('Error keeping subscription...', error);
      window.alert(isStatus(error, 429) ? ALERTS.keepRateLimited : ALERTS.keepFailed);
    } finally {
      setBusy(item.id, false);
    }
  }

  async function block(item: Subscription, confirmBlock = false): Promise<void> {
    if (busyNow.current.has(item.id)) return;
    setBusy(item.id, true);
    try {
      await calls.block.mutateAsync({ item, confirmBlock });
    } catch (error) {
      const question = blockQuestion(error, 409);
      if (question) return setDialog({ kind: 'confirm-block', item, message: question, via: 'block' });
      fail(error, {
        error: 'Error blocking sender...',
        failed: 'Failed to block the sender. Please try again.',
      });
    } finally {
      setBusy(item.id, false);
    }
  }

  /** POST /manual-unsubscribe: the user opened the sender's page and it worked. */
  async function confirmManual(item: Subscription) {
    if (busyNow.current.has(item.id)) return;
    setBusy(item.id, true);
    try {
      await calls.manualUnsubscribe.mutateAsync(item);
    } catch (error) {
      fail(error, { error: ALERTS.manualUnsubscribeError, failed: ALERTS.manualUnsubscribeFailed });
    } finally {
      setBusy(item.id, false);
    }
  }

  function afterLinkOpened(item: Subscription, next: AfterOpen) {
    if (next === 'confirm') setDialog({ kind: 'confirm', item });
    else void confirmManual(item);
  }

  /** 'Don't remind me' was ticked: the matching alert is saved as off (both fields sent). */
  async function dismissReminder(reminder: Reminder) {
    const current = await loadSettings(queryClient);
    // A failure alerts (and puts the previous settings back) in the mutation.
    saveSettings.mutate({
      ...current,
      ...withoutReminder({ ...DEFAULT_ALERT_SETTINGS, ...current }, reminder),
    });
  }

  async function unsubscribe(item: Subscription, confirmBlock = false) {
    if (busyNow.current.has(item.id)) return;
    setBusy(item.id, true);
    let result: UnsubscribeResult;
    let alerts: SettingsUpdate;
    try {
      result = await calls.unsubscribe.mutateAsync({ item, confirmBlock });
      alerts = await currentSettings();
    } catch (error) {
      const notSent = blockQuestion(error, 502);
      if (notSent) return setDialog({ kind: 'offer-block', item, message: notSent });
      const question = blockQuestion(error, 409);
      if (question) return setDialog({ kind: 'confirm-block', item, message: question, via: 'unsubscribe' });
      fail(error, { error: ALERTS.unsubscribeError, failed: ALERTS.unsubscribeFailed });
      return;
    } finally {
      setBusy(item.id, false);
    }
    const step = nextUnsubscribeStep(result, alerts);
    switch (step.kind) {
      case 'remove':
        return calls.removed(item);
      case 'reauth':
        return setDialog({ kind: 'reauth', authUrl: step.authUrl });
      case 'manual-dialog':
        return setDialog({
          kind: 'manual',
          item,
          url: step.url,
          options: step.showOptions ? step.options : null,
          next: step.next,
        });
      case 'open':
        openLink(step.url);
        return afterLinkOpened(item, step.next);
      case 'failed':
        console.warn(ALERTS.unsubscribeFailed, result);
        window.alert(ALERTS.unsubscribeFailed);
    }
  }

  const close = () => setDialog(NO_DIALOG);

  const dialogs = (
    <>
      <ReauthDialog
        show={dialog.kind === 'reauth'}
        onReauthenticate={() => {
          if (dialog.kind === 'reauth') window.location.assign(dialog.authUrl);
          close();
        }}
        onCancel={close}
      />
      <ManualUnsubscribeDialog
        show={dialog.kind === 'manual'}
        options={dialog.kind === 'manual' ? dialog.options : null}
        onOpen={(dontRemind) => {
          if (dontRemind) void dismissReminder('manual');
          if (dialog.kind !== 'manual') return close();
          openLink(dialog.url);
          close();
          afterLinkOpened(dialog.item, dialog.next);
        }}
        onCancel={(dontRemind) => {
          if (dontRemind) void dismissReminder('manual');
          close();
        }}
      />
      <ConfirmDialog
        show={dialog.kind === 'offer-block'}
        title="Unsubscribe email not sent"
        confirmLabel="Block sender"
        danger
        onConfirm={() => {
          close();
          if (dialog.kind === 'offer-block') void block(dialog.item);
        }}
        onCancel={close}
      >
        <p className="mb-0">{dialog.kind === 'offer-block' ? dialog.message : ''}</p>
      </ConfirmDialog>
      <ConfirmDialog
        show={dialog.kind === 'confirm-block'}
        title="Block this sender?"
        confirmLabel="Block anyway"
        danger
        onConfirm={() => {
          close();
          if (dialog.kind !== 'confirm-block') return;
          if (dialog.via === 'unsubscribe') void unsubscribe(dialog.item, true);
          else void block(dialog.item, true);
        }}
        onCancel={close}
      >
        <p className="mb-0">{dialog.kind === 'confirm-block' ? dialog.message : ''}</p>
      </ConfirmDialog>
      <UnsubscribeConfirmDialog
        show={dialog.kind === 'confirm'}
        onYes={(dontRemind) => {
          if (dontRemind) void dismissReminder('after');
          close();
          if (dialog.kind === 'confirm') void confirmManual(dialog.item);
        }}
        onNotYet={(dontRemind) => {
          if (dontRemind) void dismissReminder('after');
          close();
        }}
      />
    </>
  );

  return { busyRows, keep, unsubscribe: (item) => unsubscribe(item), block: (item) => block(item), dialogs };
}

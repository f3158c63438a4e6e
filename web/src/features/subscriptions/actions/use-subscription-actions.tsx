// The ACTIONS of the subscription list (docs/product.md §4 Keep, Unsubscribe flow): the per-row busy flags
// (with words once a call is slow), the calls (api/row-actions.ts), the dialogs of the unsubscribe flow, and a
// note of what each action did, with Undo where it can be undone (feedback.ts), and of what failed and why, with
// Retry (docs/decisions/098-failures-say-why.md). The flow's decisions live
// in unsubscribe-flow.ts. A 403 needs nothing here: the query client sends every one to the sign-in page; a
// 402 (the free trial's limit) is said here, in the plan dialog with the server's reason.
import { useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useCallback, useRef, useState } from 'react';
import type { SettingsUpdate, Subscription, SubscriptionCategory, UnsubscribeResult } from '#contract/api.js';
import { ALERTS } from '#contract/validation.js';
import { errorToast, type Toasts, useToasts } from '../../../components/toasts';
import { ApiError, failureText, messageOf, redirectUrlOf } from '../../../lib/api-client';
import { useGoTo } from '../../../lib/navigation';
import { currentSettings as loadSettings, useSettings, useUpdateSettings } from '../../settings';
import { type ActionOptions, putBackFromTrash, useSubscriptionMutations } from '../api/row-actions';
import {
  blockedText,
  keptText,
  manualText,
  putBackText,
  reviewedText,
  SLOW_AFTER_MS,
  type SlowAction,
  slowText,
  unblockedText,
  unsubscribedText,
} from './feedback';
import type { FlowDialog as Dialog, FlowHandlers } from './unsubscribe-dialogs';
import {
  type AfterOpen,
  DEFAULT_ALERT_SETTINGS,
  failureStep,
  nextUnsubscribeStep,
  type Reminder,
  withoutReminder,
} from './unsubscribe-flow';

const NO_DIALOG: Dialog = { kind: 'none' };

// The flow's dialogs come with the first one shown (the list's first load has a budget); they then stay,
// so that each closes with its transition.
const FlowDialogs = lazy(() => import('./unsubscribe-dialogs'));

/** The sender's page in a new tab, with no way back to this one. */
function openLink(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

export interface SubscriptionActions {
  /** The rows whose action is running: id → what it is doing, in words, once it is slow (else null). */
  busyRows: ReadonlyMap<string, string | null>;
  keep: (item: Subscription) => Promise<void>;
  /** `moveToTrash`: also move the sender's existing mail to the trash once unsubscribed. */
  unsubscribe: (item: Subscription, options?: { moveToTrash?: boolean }) => Promise<void>;
  /** POST /manual-unsubscribe: the user opened the sender's page and it worked; true once saved. */
  confirmManual: (item: Subscription) => Promise<boolean>;
  /** A failed call of the screen's own (a bulk action's start): the note (with `retry`), sign-in or pricing. */
  reportFailure: (error: unknown, retry?: () => void) => void;
  /** Shows the Re-authentication Required dialog (`reason`: the server's words). */
  askReauth: (authUrl: string, reason?: string) => void;
  /** Blocks a sender (asking first when some of its mail has no list headers); onChanged gets the result. */
  block: (item: Subscription) => Promise<void>;
  /** The flow's dialogs, to be rendered once by the screen. */
  dialogs: ReactNode;
}

/**
 * The leads of a failure's note (contract ALERTS): `error` when no answer came (network, a bug), `failed` before
 * the server's reason (or the spec's rate-limit words, for a 429 that gave none).
 */
interface FailureTexts {
  error: string;
  failed: string;
}

const leads = (lead: string): FailureTexts => ({ error: lead, failed: lead });

/** Each action's failure texts (the spec's where it has them, docs/product.md §8). */
const FAILED = {
  keep: leads(ALERTS.keepFailed),
  block: leads('Failed to block the sender...'),
  undo: leads('Failed to undo the action...'),
  manual: { error: ALERTS.manualUnsubscribeError, failed: ALERTS.manualUnsubscribeFailed },
  unsubscribe: { error: ALERTS.unsubscribeError, failed: ALERTS.unsubscribeFailed },
  bulk: leads('Failed to start the action...'),
} satisfies Record<string, FailureTexts>;

/** The server's reason of a 502 offering Block, or of a 409 asking to confirm a block; null otherwise. */
function blockQuestion(error: unknown, status: 502 | 409): string | null {
  if (!(error instanceof ApiError) || error.status !== status) return null;
  const flagged = status === 502 ? error.details.offerBlock : error.details.confirmBlock;
  return flagged && error.message ? error.message : null;
}

/** The flow's settings saves ('Don't remind me'): a failure is an error note with Retry. */
function useReminderSaves(toasts: Toasts) {
  return useUpdateSettings((text, retry, error) =>
    toasts.show(errorToast(text, retry, 'settings-save', error)),
  );
}

/**
 * The actions on the rows of the `category` list. Their answers update the cached lists (docs/product.md §4: the
 * item leaves the current list; a blocked item moves to Unsubscribed): see api/row-actions.ts.
 */
/** "Put its mail back" after a Keep that lifted a block: the mail the block trashed comes back, said in a note. */
async function putBack(
  item: Subscription,
  toasts: Toasts,
  failed: (error: unknown, retry: () => void) => void,
): Promise<void> {
  try {
    const updated = await putBackFromTrash(item.id);
    toasts.show({ text: putBackText(item, updated.restoredFromTrash ?? 0) });
  } catch (error) {
    failed(error, () => void putBack(item, toasts, failed));
  }
}

export function useSubscriptionActions(category: SubscriptionCategory): SubscriptionActions {
  const goTo = useGoTo();
  const queryClient = useQueryClient();
  const calls = useSubscriptionMutations(category);
  const toasts = useToasts();
  const saveSettings = useReminderSaves(toasts);
  const [busyRows, setBusyRows] = useState<ReadonlyMap<string, string | null>>(new Map());
  const busyNow = useRef(new Map<string, string | null>());
  const [dialog, setDialogState] = useState<Dialog>(NO_DIALOG);
  const [dialogsWanted, setDialogsWanted] = useState(false);
  const setDialog = useCallback((next: Dialog) => {
    if (next.kind !== 'none') setDialogsWanted(true);
    setDialogState(next);
  }, []);
  // The alert settings are fetched when the list opens, so that the flow rarely has to wait for them.
  useSettings();

  /** The alert settings (defaults when they could not be fetched); a pending fetch is awaited. */
  async function currentSettings(): Promise<SettingsUpdate> {
    return { ...DEFAULT_ALERT_SETTINGS, ...(await loadSettings(queryClient)) };
  }

  const setBusy = useCallback((id: string, on: boolean) => {
    if (on) busyNow.current.set(id, null);
    else busyNow.current.delete(id);
    setBusyRows(new Map(busyNow.current));
  }, []);

  /**
   * Runs `call` with the row busy; once it has taken SLOW_AFTER_MS the row says what it waits for (a
   * sender's server may take up to its timeout). Null when the row was busy already.
   */
  async function busyWhile<T>(item: Subscription, action: SlowAction, call: () => Promise<T>): Promise<T> {
    setBusy(item.id, true);
    const slow = setTimeout(() => {
      if (!busyNow.current.has(item.id)) return;
      busyNow.current.set(item.id, slowText(action, item));
      setBusyRows(new Map(busyNow.current));
    }, SLOW_AFTER_MS);
    try {
      return await call();
    } finally {
      clearTimeout(slow);
      setBusy(item.id, false);
    }
  }

  /** docs/product.md §8 for a failed call: redirect, pricing, sign-in, or a note saying why, with Retry. */
  function fail(action: keyof typeof FAILED, error: unknown, retry?: () => void, item?: Subscription) {
    const texts: FailureTexts = FAILED[action];
    const status = error instanceof ApiError && error.status > 0 ? error.status : null;
    const step = failureStep(status, redirectUrlOf(error));
    if (step.kind === 'redirect') return goTo(step.url);
    if (step.kind === 'plan') return setDialog({ kind: 'plan', message: messageOf(error, '') });
    // Sign-in (403) is the query client's answer to every call (lib/query-client.ts).
    if (step.kind === 'navigate') return;
    console.warn(texts.error, error);
    // ALERTS.keepRateLimited is the same sentence as ALERTS.rateLimited.
    const limit = step.alert === 'rateLimited' ? ALERTS.rateLimited : undefined;
    const text = failureText(step.alert === 'error' ? texts.error : texts.failed, error, limit);
    toasts.show(errorToast(text, retry, item ? `${action}:${item.id}` : action, error));
  }

  /** Undo of a Keep or a Block: `after` is the item as the action left it. */
  async function undo(kind: 'review' | 'unblock', item: Subscription, after: Subscription) {
    try {
      const reverted = await busyWhile(item, kind === 'review' ? 'keep' : 'block', () =>
        (kind === 'review' ? calls.review : calls.unblock).mutateAsync({ item: after }),
      );
      toasts.show({ text: kind === 'review' ? reviewedText(item) : unblockedText(item, reverted) });
    } catch (error) {
      fail('undo', error, () => void undo(kind, item, after), item);
    }
  }

  /** The note of a block (Undo lifts it and moves the mail back); `after`: the item as blocked. */
  function blockedNote(item: Subscription, text: string, after: Subscription) {
    toasts.show({ text, action: { label: 'Undo', run: () => void undo('unblock', item, after) } });
  }

  async function keep(item: Subscription) {
    if (busyNow.current.has(item.id)) return;
    try {
      const updated = await busyWhile(item, 'keep', () => calls.keep.mutateAsync(item));
      // Back to review is the undo of a Keep from the review list; a Keep elsewhere (lifting a block)
      // has no such way back.
      const after = updated ?? { ...item, category: 'kept' as const };
      // A lifted block leaves the mail it trashed there: the note offers to bring it back.
      const action = updated?.blockLifted
        ? {
            label: 'Put its mail back',
            run: () => void putBack(item, toasts, (e, retry) => fail('keep', e, retry, item)),
          }
        : item.category === 'uncategorized'
          ? { label: 'Undo', run: () => void undo('review', item, after) }
          : undefined;
      toasts.show({ text: keptText(item, updated), ...(action ? { action } : {}) });
    } catch (error) {
      fail('keep', error, () => void keep(item), item);
    }
  }

  async function block(item: Subscription, { confirmBlock = false }: ActionOptions = {}): Promise<void> {
    if (busyNow.current.has(item.id)) return;
    try {
      const updated = await busyWhile(item, 'block', () => calls.block.mutateAsync({ item, confirmBlock }));
      blockedNote(item, blockedText(item, updated), updated ?? { ...item, category: 'unsubscribed' });
    } catch (error) {
      const question = blockQuestion(error, 409);
      if (question) return setDialog({ kind: 'confirm-block', item, message: question, via: 'block' });
      fail('block', error, () => void block(item, { confirmBlock }), item);
    }
  }

  /** POST /manual-unsubscribe: the user opened the sender's page and it worked. */
  async function confirmManual(item: Subscription): Promise<boolean> {
    if (busyNow.current.has(item.id)) return false;
    try {
      await busyWhile(item, 'manual', () => calls.manualUnsubscribe.mutateAsync(item));
      toasts.show({ text: manualText(item) });
      return true;
    } catch (error) {
      fail('manual', error, () => void confirmManual(item), item);
      return false;
    }
  }

  function afterLinkOpened(item: Subscription, url: string, next: AfterOpen) {
    if (next === 'confirm') setDialog({ kind: 'confirm', item, url });
    else void confirmManual(item);
  }

  /** 'Don't remind me' was ticked: the matching alert is saved as off (both fields sent). */
  async function dismissReminder(reminder: Reminder) {
    const current = await loadSettings(queryClient);
    // A failure is shown (and the previous settings put back) by the mutation.
    saveSettings.mutate({
      ...current,
      ...withoutReminder({ ...DEFAULT_ALERT_SETTINGS, ...current }, reminder),
    });
  }

  async function unsubscribe(
    item: Subscription,
    { moveToTrash = false, confirmBlock = false }: ActionOptions = {},
  ) {
    if (busyNow.current.has(item.id)) return;
    let result: UnsubscribeResult;
    let alerts: SettingsUpdate;
    try {
      [result, alerts] = await busyWhile(item, 'unsubscribe', async () => {
        const answer = await calls.unsubscribe.mutateAsync({ item, confirmBlock, moveToTrash });
        return [answer, await currentSettings()] as const;
      });
    } catch (error) {
      const notSent = blockQuestion(error, 502);
      if (notSent) return setDialog({ kind: 'offer-block', item, message: notSent });
      const question = blockQuestion(error, 409);
      if (question)
        return setDialog({ kind: 'confirm-block', item, message: question, via: 'unsubscribe', moveToTrash });
      return fail('unsubscribe', error, () => void unsubscribe(item, { moveToTrash, confirmBlock }), item);
    }
    const step = nextUnsubscribeStep(result, alerts);
    switch (step.kind) {
      case 'remove': {
        calls.removed(item);
        const text = unsubscribedText(item, result);
        if (result.blockedAndTrashed && text) {
          return blockedNote(item, text, { ...item, category: 'unsubscribed', unsubscribeMethod: 'block' });
        }
        if (text) toasts.show({ text });
        return;
      }
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
        return afterLinkOpened(item, step.url, step.next);
      case 'failed':
        console.warn(ALERTS.unsubscribeFailed, result);
        toasts.show(
          errorToast(
            ALERTS.unsubscribeFailed,
            () => void unsubscribe(item, { moveToTrash }),
            `unsubscribe:${item.id}`,
          ),
        );
    }
  }

  const close = () => setDialog(NO_DIALOG);
  const askReauth = useCallback(
    (authUrl: string, reason?: string) => setDialog({ kind: 'reauth', authUrl, reason }),
    [setDialog],
  );

  const handlers: FlowHandlers = {
    close,
    reauthenticate: (authUrl) => {
      window.location.assign(authUrl);
      close();
    },
    openManual: (shown, dontRemind) => {
      if (dontRemind) void dismissReminder('manual');
      openLink(shown.url);
      close();
      afterLinkOpened(shown.item, shown.url, shown.next);
    },
    cancelManual: (dontRemind) => {
      if (dontRemind) void dismissReminder('manual');
      close();
    },
    offerBlock: (item) => {
      close();
      void block(item);
    },
    confirmBlock: (shown) => {
      close();
      if (shown.via === 'unsubscribe')
        void unsubscribe(shown.item, { moveToTrash: shown.moveToTrash, confirmBlock: true });
      else void block(shown.item, { confirmBlock: true });
    },
    confirmYes: (item, dontRemind) => {
      if (dontRemind) void dismissReminder('after');
      close();
      void confirmManual(item);
    },
    confirmNotYet: ({ item, url }, dontRemind) => {
      if (dontRemind) void dismissReminder('after');
      setDialog({ kind: 'not-yet', item, url });
    },
  };

  const dialogs = dialogsWanted ? (
    <Suspense fallback={null}>
      <FlowDialogs dialog={dialog} on={handlers} />
    </Suspense>
  ) : null;

  return {
    busyRows,
    keep,
    unsubscribe: (item, { moveToTrash } = {}) => unsubscribe(item, { moveToTrash }),
    block: (item) => block(item),
    confirmManual,
    askReauth,
    reportFailure: (error, retry) => fail('bulk', error, retry),
    dialogs,
  };
}

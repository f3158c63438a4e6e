// What an action did, said in words (the subscription screen's feedback): short notes in ONE live region
// (role=status), so that a screen reader reads each once, wherever the action started. A note stays
// TOAST_MS (longer while the pointer or the keyboard is on it), can be dismissed, and may carry one action
// (Undo, Put its mail back): a note with one stays until dismissed or LASTING_MS, so the way back is not
// gone in a few seconds. A failure is an error note: marked by an icon (styles.css)
// and, for screen readers, "Error:"; it stays until dismissed or ERROR_TOAST_MS, often with Retry
// (docs/decisions/098-failures-say-why.md).
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { isStatus } from '../lib/api-client';

/** How long a note stays on screen. */
export const TOAST_MS = 6000;
/** The longest an error note stays (it is not held longer: 30 s at most). */
export const ERROR_TOAST_MS = 30_000;
/** How long a note with an action (Undo) stays unless dismissed: long enough to change one's mind. */
export const LASTING_MS = 30_000;
/** Notes shown at once; an older one gives way. */
const MAX_TOASTS = 3;

export interface ToastInput {
  text: string;
  /** One button beside the text, e.g. Undo; the note closes when it is pressed. */
  action?: { label: string; run: () => void };
  /** Stays until replaced or dismissed (a progress note). */
  sticky?: boolean;
  /** A note with the id of one on screen replaces it (progress, then the result). */
  id?: string;
  /** A failure: stays until dismissed, ERROR_TOAST_MS at most. */
  error?: boolean;
}

/**
 * The note of a failure (`text`: lib/api-client.ts failureText), with Retry when `retry` is given; `id`: the
 * action's own (one note per action and row). Every rate limit (429 `error`) shares one note: the calls of one
 * click that all met the refused token fetch show once.
 */
export function errorToast(
  text: string,
  retry: (() => void) | undefined,
  id: string,
  error?: unknown,
): ToastInput {
  return {
    text,
    id: isStatus(error, 429) ? 'rate-limited' : id,
    error: true,
    action: retry && { label: 'Retry', run: retry },
  };
}

interface Toast extends ToastInput {
  id: string;
}

export interface Toasts {
  /** Shows a note; answers its id. */
  show: (toast: ToastInput) => string;
  dismiss: (id: string) => void;
}

const NO_TOASTS: Toasts = { show: () => '', dismiss: () => {} };
const ToastContext = createContext<Toasts>(NO_TOASTS);
/** The notes on screen, apart: a new note re-renders the region, not every screen that can show one. */
const ToastList = createContext<readonly Toast[]>([]);

export function useToasts(): Toasts {
  return useContext(ToastContext);
}

let toastSeq = 0;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: string) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback((input: ToastInput) => {
    toastSeq += 1;
    const toast: Toast = { ...input, id: input.id ?? `toast-${toastSeq}` };
    setToasts((all) => {
      const others = all.filter((t) => t.id !== toast.id);
      return [...others, toast].slice(-MAX_TOASTS);
    });
    return toast.id;
  }, []);
  const value = useMemo(() => ({ show, dismiss }), [show, dismiss]);
  return (
    <ToastContext.Provider value={value}>
      <ToastList.Provider value={toasts}>{children}</ToastList.Provider>
    </ToastContext.Provider>
  );
}

/** The one live region of the provider's notes, placed once (inside the page's main landmark). */
export function ToastRegion() {
  const toasts = useContext(ToastList);
  const { dismiss } = useContext(ToastContext);
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <ToastNote key={toast.id} toast={toast} onDismiss={() => dismiss(toast.id)} />
      ))}
    </div>
  );
}

/** How long a note stays unless dismissed: a failure and a note with a way back (Undo) 30 s, others 6 s. */
export function noteLifetime(toast: Pick<ToastInput, 'error' | 'action'>): number {
  return toast.error ? ERROR_TOAST_MS : toast.action ? LASTING_MS : TOAST_MS;
}

function ToastNote({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
  const [held, setHeld] = useState(false);
  const dismissRef = useRef(onDismiss);
  dismissRef.current = onDismiss;
  // A new text (same id) starts the time again; a held note (pointer or focus on it) waits.
  // An error note is not held: it goes after ERROR_TOAST_MS in any case.
  const waiting = held && !toast.error;
  // biome-ignore lint/correctness/useExhaustiveDependencies: restarts for a new text of the same note
  useEffect(() => {
    if (toast.sticky || waiting) return;
    const timer = setTimeout(() => dismissRef.current(), noteLifetime(toast));
    return () => clearTimeout(timer);
  }, [toast.sticky, toast.error, toast.action, toast.text, waiting]);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: pointer and focus only hold the note on screen; its buttons are the controls
    <div
      className={`app-toast${toast.error ? ' app-toast-error' : ''}`}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <span className="app-toast-text">
        {toast.error && <span className="visually-hidden">Error: </span>}
        {toast.text}
      </span>
      {toast.action && (
        <button
          type="button"
          className="btn btn-sm btn-link app-toast-action"
          onClick={() => {
            toast.action?.run();
            onDismiss();
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button type="button" className="btn-close btn-close-white" aria-label="Dismiss" onClick={onDismiss} />
    </div>
  );
}

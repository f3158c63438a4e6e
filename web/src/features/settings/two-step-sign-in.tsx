import { type ReactNode, useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { TotpSetup, TotpStatus } from '#contract/api.js';
import { ErrorBanner } from '../../components/auth-form';
import { ErrorState } from '../../components/error-state';
import { Loading } from '../../components/loading';
import { messageOf } from '../../lib/api-client';
import { useDisableTotp, useSetUpTotp, useTotpStatus } from './api/totp';
import { CodeForm } from './code-form';
import { RecoveryCodes } from './recovery-codes';
import { TotpSetupPanel } from './totp-setup-panel';

/**
 * Moves the keyboard's focus to the new view's `[data-focus-target]` after each step the visitor took
 * (`step` counts them; nothing moves on the first render).
 */
function useFocusAfterStep(step: number) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (step > 0) ref.current?.querySelector<HTMLElement>('[data-focus-target]')?.focus();
  }, [step]);
  return ref;
}

/** Two-step sign-in: off (Set up), being set up, the recovery codes once, on (Turn off). */
export function TwoStepSignIn() {
  const status = useTotpStatus();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [step, setStep] = useState(0);
  const viewRef = useFocusAfterStep(step);
  /** Shows `view`'s change and moves the keyboard's focus to it. */
  const then = (change: () => void) => () => {
    change();
    setStep((n) => n + 1);
  };

  let view: ReactNode;
  if (codes) {
    view = <RecoveryCodes codes={codes} onDone={then(() => setCodes(null))} />;
  } else if (!status.data) {
    view = status.isError ? (
      <ErrorState
        message="Failed to fetch the two-step sign-in state."
        onRetry={() => void status.refetch()}
      />
    ) : (
      <Loading label="Loading two-step sign-in…" />
    );
  } else if (status.data.enabled) {
    view = <TotpOn status={status.data} onTurnedOff={then(() => setSetup(null))} />;
  } else if (setup) {
    view = (
      <TotpSetupPanel
        setup={setup}
        onEnabled={(recoveryCodes) => then(() => setCodes(recoveryCodes))()}
        onCancel={then(() => setSetup(null))}
      />
    );
  } else {
    view = <TotpOff onSetup={(started) => then(() => setSetup(started))()} />;
  }

  return (
    <section className="security-part" aria-labelledby="two-step-heading">
      <h3 className="h6 fw-semibold" id="two-step-heading">
        Two-step sign-in
      </h3>
      <div ref={viewRef}>{view}</div>
    </section>
  );
}

/** Off: what it is, and Set up (a new secret from the server). */
function TotpOff({ onSetup }: { onSetup: (setup: TotpSetup) => void }) {
  const setUp = useSetUpTotp();
  return (
    <>
      <p data-focus-target tabIndex={-1}>
        Two-step sign-in is off. With it on, signing in with your password also asks for a code from an
        authenticator app on your phone.
      </p>
      <ErrorBanner
        message={
          setUp.isError ? messageOf(setUp.error, 'The setup could not start. Please try again.') : null
        }
      />
      <Button
        variant="primary"
        disabled={setUp.isPending}
        onClick={() => setUp.mutate(undefined, { onSuccess: onSetup })}
      >
        {setUp.isPending ? 'Setting up…' : 'Set up'}
      </Button>
    </>
  );
}

function TotpOn({ status, onTurnedOff }: { status: TotpStatus; onTurnedOff: () => void }) {
  const disable = useDisableTotp();
  const [turningOff, setTurningOff] = useState(false);
  // Cancel gives the keyboard back to the button that opened the form.
  const turnOffRef = useRef<HTMLButtonElement>(null);
  const opened = useRef(false);
  useEffect(() => {
    if (turningOff) opened.current = true;
    else if (opened.current) turnOffRef.current?.focus();
  }, [turningOff]);
  const left = status.recoveryCodesLeft;
  return (
    <>
      <p data-focus-target tabIndex={-1}>
        <span className="badge text-bg-success me-2">On</span>
        Signing in with your password also asks for a code from your authenticator app.{' '}
        {left === 1 ? '1 recovery code left.' : `${left} recovery codes left.`}
      </p>
      {left <= 2 && (
        <p className="text-body-secondary small">
          When your recovery codes run out, turn two-step sign-in off and on again for new ones.
        </p>
      )}
      {turningOff ? (
        <CodeForm
          id="totp-disable-code"
          focusOnMount
          submitLabel="Turn off"
          busyLabel="Turning off…"
          danger
          fallback="Two-step sign-in could not be turned off. Please try again."
          onCode={async (code) => {
            await disable.mutateAsync(code);
            onTurnedOff();
          }}
          onCancel={() => setTurningOff(false)}
        />
      ) : (
        <Button ref={turnOffRef} variant="outline-danger" onClick={() => setTurningOff(true)}>
          Turn off
        </Button>
      )}
    </>
  );
}

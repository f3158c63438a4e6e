import { lazy, Suspense } from 'react';
import type { TotpSetup } from '#contract/api.js';
import { useEnableTotp } from './api/totp';
import { CodeForm } from './code-form';
import { groupedKey } from './security-text';

// qrcode loads with the first QR code drawn, not with Settings. The pending box is drawn here (not
// imported from the lazy module, which would then load with Settings).
const QrCode = lazy(() =>
  import('./qr-code').catch(() => ({ default: () => <p className="small">{QR_UNAVAILABLE}</p> })),
);
const QR_UNAVAILABLE = 'The QR code could not be drawn: enter the setup key instead.';

interface TotpSetupPanelProps {
  setup: TotpSetup;
  /** Two-step sign-in is on: the recovery codes to show, once. */
  onEnabled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}

/** Setting up two-step sign-in: the QR code and the key for the app, then the app's first code. */
export function TotpSetupPanel({ setup, onEnabled, onCancel }: TotpSetupPanelProps) {
  const enable = useEnableTotp();
  return (
    <div className="security-panel">
      <h4 className="h6 fw-semibold" tabIndex={-1} data-focus-target>
        Set up two-step sign-in
      </h4>
      <ol className="ps-3">
        <li className="mb-2">
          Scan this QR code with your authenticator app (such as Google Authenticator, Microsoft
          Authenticator, 1Password or Aegis).
          <div className="totp-qr-row my-2">
            <Suspense fallback={<div className="totp-qr totp-qr-pending" />}>
              <QrCode value={setup.otpauthUrl} />
            </Suspense>
            <div className="small">
              <label htmlFor="totp-secret" className="form-label mb-1">
                Cannot scan it? Enter this setup key in the app instead:
              </label>
              <textarea
                id="totp-secret"
                className="form-control form-control-sm totp-secret mb-2"
                readOnly
                rows={2}
                spellCheck={false}
                value={groupedKey(setup.secret)}
                onFocus={(event) => event.currentTarget.select()}
              />
              <p className="mb-0">
                On this phone? <a href={setup.otpauthUrl}>Open the authenticator app</a>
              </p>
            </div>
          </div>
        </li>
        <li>Enter the 6-digit code the app shows for Inbox Genie.</li>
      </ol>
      <CodeForm
        id="totp-enable-code"
        appOnly
        submitLabel="Turn on"
        busyLabel="Turning on…"
        fallback="Two-step sign-in could not be turned on. Please try again."
        onCode={async (code) => onEnabled((await enable.mutateAsync(code)).recoveryCodes)}
        onCancel={onCancel}
      />
    </div>
  );
}

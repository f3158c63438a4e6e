import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { recoveryCodesFile } from './security-text';

const FILE_NAME = 'inbox-genie-recovery-codes.txt';

/** Saves the codes as a text file (a Blob behind a temporary link). */
function download(codes: readonly string[]) {
  const blob = new Blob([recoveryCodesFile(codes, window.location.host)], {
    type: 'text/plain;charset=utf-8',
  });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = FILE_NAME;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The ten recovery codes right after two-step sign-in was turned on: shown this once. */
export function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <div className="security-panel">
      <h4 className="h6 fw-semibold" tabIndex={-1} data-focus-target>
        Two-step sign-in is on. Save your recovery codes
      </h4>
      <p>
        If your authenticator app is not at hand, sign in with one of these codes instead.{' '}
        <strong>Each code works once.</strong> They are shown only now: copy or download them and keep them
        somewhere safe.
      </p>
      <ul className="recovery-codes list-unstyled" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="d-flex flex-wrap gap-2 align-items-center">
        <Button variant="outline-primary" onClick={copy}>
          Copy
        </Button>
        <Button variant="outline-primary" onClick={() => download(codes)}>
          Download
        </Button>
        <Button variant="primary" onClick={onDone}>
          I have saved them
        </Button>
        <span role="status" className="small">
          {copied === 'yes' && 'Copied.'}
          {copied === 'failed' && 'Could not copy: select the codes and copy them, or use Download.'}
        </span>
      </div>
    </div>
  );
}

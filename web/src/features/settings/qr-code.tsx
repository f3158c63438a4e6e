import { toString as qrToString } from 'qrcode';
import { useEffect, useState } from 'react';

// The QR code of the setup key. This module (with qrcode) is loaded lazily by totp-setup-panel.tsx, when
// the first code is drawn: the library is in no first load.

/** The SVG of `value` as an image address. */
async function qrImage(value: string): Promise<string> {
  const svg = await qrToString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** The place of the code while it is drawn. */
function QrPending() {
  return (
    <div className="totp-qr totp-qr-pending" role="status">
      <span className="visually-hidden">Drawing the QR code…</span>
    </div>
  );
}

/** Said instead of the code when it cannot be drawn. */
function QrUnavailable() {
  return (
    <p className="text-body-secondary small">The QR code could not be drawn: enter the setup key instead.</p>
  );
}

/** The otpauth:// address as a QR code for an authenticator app's camera. */
export default function QrCode({ value }: { value: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    setSrc(null);
    setFailed(false);
    qrImage(value).then(
      (image) => current && setSrc(image),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [value]);

  if (failed) return <QrUnavailable />;
  if (!src) return <QrPending />;
  return (
    <img
      className="totp-qr"
      src={src}
      width={200}
      height={200}
      alt="QR code of the setup key, for your authenticator app"
    />
  );
}

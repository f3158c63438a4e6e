import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useNavigate } from 'react-router';
import type { Settings as SettingsBody } from '../../../../contract/api.js';
import { SCREENS } from '../../../../contract/routes.js';
import { ALERTS } from '../../../../contract/validation.js';
import { deleteAccount, getSettings, updateSettings } from '../../api/calls';
import { isStatus } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useSession } from '../auth/session';

/** SPEC §3: both alerts default to on. */
const DEFAULT_SETTINGS: SettingsBody = {
  alertManualUnsubscribe: true,
  alertAfterUnsubscribe: true,
  autoBlockStillSending: false,
};

const SWITCHES: readonly { key: keyof SettingsBody; label: string }[] = [
  { key: 'alertManualUnsubscribe', label: 'Alert me when a manual unsubscribe is required' },
  { key: 'alertAfterUnsubscribe', label: 'Ask me to confirm after a manual unsubscribe' },
  { key: 'autoBlockStillSending', label: 'Block senders that keep sending after I unsubscribe' },
];

/** /genie/settings: the two alert switches, the auto-block switch and account deletion. */
export default function Settings() {
  const navigate = useNavigate();
  const { signedOut } = useSession();
  const [settings, setSettings] = useState<SettingsBody | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);

  useEffect(() => {
    let current = true;
    getSettings()
      .then((loaded) => current && setSettings(loaded))
      .catch((error: unknown) => {
        if (!current) return;
        if (isStatus(error, 403)) {
          navigate(SCREENS.signin, { replace: true });
          return;
        }
        console.error(ALERTS.fetchSettingsFailed, error);
        setSettings(DEFAULT_SETTINGS);
      });
    return () => {
      current = false;
    };
  }, [navigate]);

  async function toggle(key: keyof SettingsBody, value: boolean) {
    if (!settings) return;
    const previous = settings;
    const next = { ...settings, [key]: value };
    setSettings(next);
    try {
      await updateSettings(next);
    } catch {
      setSettings(previous);
      window.alert(ALERTS.updateSettingsFailed);
    }
  }

  async function removeAccount() {
    setDeleting(true);
    try {
      await deleteAccount();
    } catch {
      setDeleting(false);
      setConfirmDelete(false);
      window.alert(ALERTS.deleteAccountFailed);
      return;
    }
    signedOut();
    navigate(SCREENS.home, { replace: true });
  }

  return (
    <section className="settings">
      <PageHeader title="Settings" />
      {settings === null ? (
        <Loading label="Loading settings…" />
      ) : (
        <Form className="mb-5" onSubmit={(e) => e.preventDefault()}>
          {SWITCHES.map(({ key, label }) => (
            <Form.Check
              key={key}
              type="switch"
              role="switch"
              id={`setting-${key}`}
              className="mb-3"
              label={label}
              checked={settings[key] ?? false}
              onChange={(e) => toggle(key, e.target.checked)}
            />
          ))}
        </Form>
      )}
      <h2 className="h5">Delete your account</h2>
      <p className="text-muted">
        Deleting your account removes your connected mailboxes and everything we stored about them.
      </p>
      <Button variant="outline-danger" onClick={() => setConfirmDelete(true)}>
        Delete Account
      </Button>
      <ConfirmDialog
        show={confirmDelete}
        title="Confirm Account Deletion"
        confirmLabel="Delete"
        danger
        busy={deleting}
        onConfirm={removeAccount}
        onCancel={() => setConfirmDelete(false)}
      >
        This permanently deletes your account, your connected mailboxes and everything we stored about them.
        This cannot be undone.
      </ConfirmDialog>
    </section>
  );
}

import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useNavigate } from 'react-router';
import type { Settings as SettingsBody } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { ALERTS } from '#contract/validation.js';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorState } from '../../components/error-state';
import { Loading } from '../../components/loading';
import { noticeState } from '../../components/notice';
import { PageHeader } from '../../components/page-header';
import { wasAlerted } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { useDeleteAccount } from './api/delete-account';
import { useSettingsScreen, useUpdateSettings } from './api/settings';
import { Security } from './security';
import { YourData } from './your-data';

const SWITCHES: readonly { key: keyof SettingsBody; label: string }[] = [
  { key: 'alertManualUnsubscribe', label: 'Alert me when a manual unsubscribe is required' },
  { key: 'alertAfterUnsubscribe', label: 'Ask me to confirm after a manual unsubscribe' },
  { key: 'autoBlockStillSending', label: 'Block senders that keep sending after I unsubscribe' },
  {
    key: 'weeklyReport',
    label: 'Email me a weekly report: new subscriptions, what my rules did, senders still sending',
  },
];

/**
 * /genie/settings: the two alert switches, the auto-block switch, the weekly report by mail (off by
 * default), the account's security (two-step sign-in, passkeys, sessions), the data downloads and account
 * deletion.
 */
export default function Settings() {
  const navigate = useNavigate();
  const { signedOut } = useSession();
  const { settings, failed, retry } = useSettingsScreen();
  const save = useUpdateSettings();
  const deletion = useDeleteAccount();
  const [confirmDelete, setConfirmDelete] = useState(false);

  // The session is dropped once this screen has gone (the home page is shown): the router's navigation
  // is a transition, and a session dropped before it would let the signed-in area's session gate render
  // first and send the visitor to the sign-in page, without the home page's message.
  const deleted = useRef(false);
  useEffect(
    () => () => {
      if (deleted.current) signedOut();
    },
    [signedOut],
  );

  /** Shown at once; a failed save puts the previous value back and alerts (useUpdateSettings). */
  function toggle(key: keyof SettingsBody, value: boolean) {
    if (!settings) return;
    save.mutate({ ...settings, [key]: value });
  }

  async function removeAccount() {
    try {
      await deletion.mutateAsync();
    } catch (error) {
      setConfirmDelete(false);
      if (!wasAlerted(error)) window.alert(ALERTS.deleteAccountFailed);
      return;
    }
    deleted.current = true;
    navigate(SCREENS.home, { replace: true, state: noticeState('accountDeleted') });
  }

  return (
    <section className="settings">
      <PageHeader title="Settings" />
      {failed ? (
        <ErrorState message={ALERTS.fetchSettingsFailed} onRetry={retry} />
      ) : settings === null ? (
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
      <Security />
      <YourData />
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
        busy={deletion.isPending || deletion.isSuccess}
        onConfirm={removeAccount}
        onCancel={() => setConfirmDelete(false)}
      >
        This permanently deletes your account, your connected mailboxes and everything we stored about them.
        This cannot be undone.
      </ConfirmDialog>
    </section>
  );
}

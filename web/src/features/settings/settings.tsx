import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { Settings as SettingsBody } from '#contract/api.js';
import { ALERTS } from '#contract/validation.js';
import { ErrorState } from '../../components/error-state';
import { Loading } from '../../components/loading';
import { PageHeader } from '../../components/page-header';
import { AccountAddress } from './account-address';
import { useSettingsScreen, useUpdateSettings } from './api/settings';
import { DeleteAccount } from './delete-account';
import { Security } from './security';
import { WeeklyReportDetails } from './weekly-report';
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
  const { settings, failed, retry } = useSettingsScreen();
  /** Why the last save failed, and its Retry, shown above the switches. */
  const [saveFailure, setSaveFailure] = useState<{ text: string; retry: () => void } | null>(null);
  /** The switch whose change the server just stored: "Saved" beside it. */
  const [saved, setSaved] = useState<keyof SettingsBody | null>(null);
  const save = useUpdateSettings((text, retry) => setSaveFailure({ text, retry }));

  /** Shown at once; a failed save puts the previous value back and says why (useUpdateSettings). */
  function toggle(key: keyof SettingsBody, value: boolean) {
    if (!settings) return;
    setSaveFailure(null);
    setSaved(null);
    save.mutate({ ...settings, [key]: value }, { onSuccess: () => setSaved(key) });
  }

  return (
    <section className="settings">
      <PageHeader title="Settings" />
      <AccountAddress />
      {failed ? (
        <ErrorState message={ALERTS.fetchSettingsFailed} onRetry={retry} />
      ) : settings === null ? (
        <Loading label="Loading settings…" />
      ) : (
        <Form className="mb-5" onSubmit={(e) => e.preventDefault()}>
          {saveFailure && (
            <div className="alert alert-danger d-flex flex-wrap align-items-center gap-2">
              <span role="alert" className="flex-grow-1">
                {saveFailure.text}
              </span>
              <Button
                variant="outline-danger"
                size="sm"
                onClick={() => {
                  setSaveFailure(null);
                  saveFailure.retry();
                }}
              >
                Retry
              </Button>
            </div>
          )}
          {SWITCHES.map(({ key, label }) => (
            <div key={key}>
              <div className="d-flex flex-wrap align-items-start column-gap-2">
                <Form.Check
                  type="switch"
                  role="switch"
                  id={`setting-${key}`}
                  className="mb-3"
                  label={label}
                  aria-describedby={key === 'weeklyReport' ? 'weekly-report-details' : undefined}
                  checked={settings[key] ?? false}
                  onChange={(e) => toggle(key, e.target.checked)}
                />
                {/* Always there, so screen readers announce the word when it appears. */}
                <span className="text-success small fw-semibold pt-1" role="status">
                  {saved === key ? 'Saved' : ''}
                </span>
              </div>
              {key === 'weeklyReport' && <WeeklyReportDetails on={settings.weeklyReport} />}
            </div>
          ))}
        </Form>
      )}
      <Security />
      <YourData />
      <DeleteAccount />
    </section>
  );
}

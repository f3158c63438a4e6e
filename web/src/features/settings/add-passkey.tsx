import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { SECURITY_MESSAGES } from '#contract/api.js';
import { ErrorBanner, Field } from '../../components/auth-form';
import { messageOf } from '../../lib/api-client';
import { isPasskeyCancel, passkeysSupported } from '../../lib/webauthn';
import { useAddPasskey } from './api/passkeys';

const MAX_NAME = 60;

/** What a failed registration means to the visitor (a closed prompt: nothing worth a banner). */
function failureText(failure: unknown): string | null {
  if (isPasskeyCancel(failure)) return null;
  if ((failure as { code?: unknown } | null)?.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return 'This device already holds a passkey for your account.';
  }
  return messageOf(failure, SECURITY_MESSAGES.passkeyFailed);
}

/** "Add a passkey" with an optional name; the browser asks which device or password manager keeps it. */
export function AddPasskey() {
  const add = useAddPasskey();
  const form = useForm({ defaultValues: { name: '' } });
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const busy = form.formState.isSubmitting;
  if (!passkeysSupported()) {
    return <p className="text-body-secondary small">This browser cannot create passkeys.</p>;
  }

  const onSubmit = form.handleSubmit(async ({ name }) => {
    setNote(null);
    if (name.trim().length > MAX_NAME) return setError(`A passkey name has at most ${MAX_NAME} characters.`);
    setError(null);
    try {
      await add.mutateAsync(name.trim() || undefined);
      form.reset();
      setNote('Passkey added.');
    } catch (failure) {
      const text = failureText(failure);
      setError(text);
      if (!text) setNote('No passkey was added.');
    }
  });

  return (
    <Form
      noValidate
      onSubmit={(event) => (busy ? event.preventDefault() : onSubmit(event))}
      className="passkey-add"
    >
      <ErrorBanner message={error} />
      <div className="passkey-add-row">
        <Field
          id="passkey-name"
          label="Name (optional)"
          autoComplete="off"
          registration={form.register('name')}
        />
        <Button type="submit" variant="outline-primary" className="mb-3" disabled={busy}>
          {busy ? 'Waiting for your device…' : 'Add a passkey'}
        </Button>
      </div>
      <p role="status" className="small mb-0">
        {note}
      </p>
    </Form>
  );
}

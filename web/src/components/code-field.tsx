import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { CODE_REQUEST } from './one-time-code';

interface CodeFieldProps {
  id: string;
  /** What react-hook-form's `register(name)` returned. */
  registration: UseFormRegisterReturn;
  label?: string;
  /** Whether a recovery code is accepted too (the sign-in and reset steps; not turning two-step on). */
  recovery?: boolean;
  /** The sentence under the field; by default the request for either kind of code. */
  hint?: string;
}

/**
 * The field of a second step's code: a numeric keyboard and the browser's one-time-code autofill for the
 * app's six digits. With `recovery`, letters and dashes are accepted as typed, and "Use a recovery code"
 * switches a phone to its full keyboard.
 */
export function CodeField({ id, registration, label = 'Code', recovery = true, hint }: CodeFieldProps) {
  const [fullKeyboard, setFullKeyboard] = useState(false);
  const hintId = `${id}-hint`;
  // The button goes away once pressed: the keyboard's focus moves on to the field, not to the page.
  const switched = useRef(false);
  useEffect(() => {
    if (fullKeyboard && !switched.current) {
      switched.current = true;
      document.getElementById(id)?.focus();
    }
  }, [fullKeyboard, id]);
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="text"
        inputMode={fullKeyboard ? 'text' : 'numeric'}
        autoComplete={fullKeyboard ? 'off' : 'one-time-code'}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        maxLength={48}
        aria-describedby={hintId}
        {...registration}
      />
      <Form.Text id={hintId} className="d-block">
        {hint ?? (recovery ? CODE_REQUEST : 'Enter the 6-digit code your authenticator app shows.')}
      </Form.Text>
      {recovery && !fullKeyboard && (
        <Button variant="link" size="sm" className="px-0" onClick={() => setFullKeyboard(true)}>
          Use a recovery code
        </Button>
      )}
    </Form.Group>
  );
}

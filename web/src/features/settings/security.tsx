import { ChangePassword } from './change-password';
import { Passkeys } from './passkeys';
import { Sessions } from './sessions';
import { TwoStepSignIn } from './two-step-sign-in';
import './security.css';

/** Settings' "Security": the password, two-step sign-in, passkeys and the account's sessions. */
export function Security() {
  return (
    <section className="security mb-5" aria-labelledby="security-heading">
      <h2 className="h5" id="security-heading">
        Security
      </h2>
      <ChangePassword />
      <TwoStepSignIn />
      <Passkeys />
      <Sessions />
    </section>
  );
}

// What a mailbox in trouble needs from the user, wherever it shows (a banner above the subscription lists,
// a line on the Email Accounts screen): why, in the server's words; when it last worked; and the way out,
// Reconnect for a refused password, Check now for anything else.
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import type { EmailAccount } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { messageOf } from '../../lib/api-client';
import { lastCheckText, problemText, reconnectUrl, troubledAccounts } from './account-list';
import { useCheckMailbox } from './api/check-mailbox';

/** Reconnect (a link: in-app or the provider's sign-in) or Check now, with what came of it. */
export function ProblemAction({ account }: { account: EmailAccount }) {
  const check = useCheckMailbox();
  if (account.status === 'reauth') {
    const url = reconnectUrl(account);
    const label = (
      <>
        Reconnect<span className="visually-hidden"> {account.email}</span>
      </>
    );
    return url.startsWith(SCREENS.addMailbox) ? (
      <Link to={url} className="btn btn-sm btn-outline-primary">
        {label}
      </Link>
    ) : (
      <a href={url} className="btn btn-sm btn-outline-primary">
        {label}
      </a>
    );
  }
  return (
    <span className="d-inline-flex flex-wrap align-items-center gap-2">
      <Button
        size="sm"
        variant="outline-primary"
        disabled={check.isPending}
        onClick={() => check.mutate(account.email)}
      >
        {check.isPending ? 'Checking…' : 'Check now'}
        <span className="visually-hidden"> {account.email}</span>
      </Button>
      {check.isSuccess && <span className="small">Checking again now.</span>}
      {check.isError && (
        <span className="small text-danger">{messageOf(check.error, 'Could not start the check.')}</span>
      )}
    </span>
  );
}

/** The reason and the last good check of one mailbox, for its row on Email Accounts. */
export function AccountProblem({ account }: { account: EmailAccount }) {
  return (
    <div className="small mt-1 account-problem">
      <div className="text-danger text-break">{problemText(account)}</div>
      <div className="text-muted">{lastCheckText(account.lastCheckedAt)}</div>
    </div>
  );
}

/** Above the subscription lists: one banner per mailbox that needs the user (none when all are well). */
export default function MailboxProblems({ accounts }: { accounts: readonly EmailAccount[] | null }) {
  const troubled = troubledAccounts(accounts);
  if (troubled.length === 0) return null;
  return (
    <>
      {troubled.map((account) => (
        <Alert key={account.email} variant="warning" className="py-2 mailbox-problem">
          <div className="text-break">{problemText(account)}</div>
          <div className="small">
            {lastCheckText(account.lastCheckedAt)} The list shows what was found until then.
          </div>
          <div className="mt-2">
            <ProblemAction account={account} />
          </div>
        </Alert>
      ))}
    </>
  );
}

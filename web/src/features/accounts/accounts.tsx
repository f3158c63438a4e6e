import { useId, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useNavigate } from 'react-router';
import type { EmailAccount } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { ALERTS } from '#contract/validation.js';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import { Loading } from '../../components/loading';
import { OAuthError } from '../../components/oauth-error';
import { PageHeader } from '../../components/page-header';
import { errorToast, useToasts } from '../../components/toasts';
import { failureText } from '../../lib/api-client';
import {
  filterAccounts,
  isTroubled,
  providerName,
  removalText,
  SCREENER_HINT,
  screenerText,
  statusBadge,
} from './account-list';
import { AccountProblem, ProblemAction } from './account-problem';
import { useRemoveEmailAccount } from './api/delete-email-account';
import { useEmailAccounts } from './api/email-accounts';
import { useSetScreener } from './api/screener';

/**
 * /genie/accounts (docs/product.md §2 Email Accounts screen). A scan starting or ending changes the status badges:
 * the live events refresh the cached list (live.ts).
 */
export default function Accounts() {
  const navigate = useNavigate();
  const { accounts, failed, retry } = useEmailAccounts();
  const removal = useRemoveEmailAccount();
  const toasts = useToasts();
  const [query, setQuery] = useState('');
  const [target, setTarget] = useState<EmailAccount | null>(null);
  const [confirming, setConfirming] = useState(false);

  function askRemove(account: EmailAccount) {
    setTarget(account);
    setConfirming(true);
  }

  async function remove() {
    if (!target) return;
    try {
      await removal.mutateAsync(target.email);
    } catch (error) {
      toasts.show(
        errorToast(
          failureText(ALERTS.deleteEmailAccountFailed, error),
          () => void remove(),
          `remove:${target.email}`,
          error,
        ),
      );
    } finally {
      setConfirming(false);
    }
  }

  const visible = accounts ? filterAccounts(accounts, query) : [];

  return (
    <section className="accounts">
      <PageHeader title="Email Accounts">
        <Button variant="primary" onClick={() => navigate(SCREENS.addAccount)}>
          Add Email Account
        </Button>
      </PageHeader>
      <OAuthError />
      <Form.Control
        type="search"
        className="mb-3 accounts-search"
        aria-label="Search accounts"
        placeholder="Search accounts"
        autoComplete="off"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      {failed && <ErrorState message={ALERTS.fetchEmailAccountsFailed} onRetry={retry} />}
      {accounts === null && !failed && <Loading label="Loading email accounts…" />}
      {accounts?.length === 0 && <EmptyState />}
      {accounts !== null && accounts.length > 0 && visible.length === 0 && (
        <p className="empty-state text-muted border rounded p-4 text-center">
          No accounts match your search.
        </p>
      )}
      {visible.length > 0 && (
        <ul className="list-group account-list">
          {visible.map((account) => (
            <AccountItem key={account.email} account={account} onRemove={() => askRemove(account)} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        show={confirming}
        title="Confirm Email Account Deletion"
        confirmLabel="Remove"
        danger
        busy={removal.isPending}
        onConfirm={remove}
        onCancel={() => setConfirming(false)}
      >
        {target ? removalText(target.email) : null}
      </ConfirmDialog>
    </section>
  );
}

function AccountItem({ account, onRemove }: { account: EmailAccount; onRemove: () => void }) {
  const emailId = useId();
  const screenerId = useId();
  const hintId = useId();
  const badge = statusBadge(account.status);
  const screener = useSetScreener();
  const toasts = useToasts();

  async function switchScreener(enabled: boolean) {
    try {
      const answer = await screener.mutateAsync({ email: account.email, enabled });
      toasts.show({ text: screenerText(account.email, answer.enabled, answer.restored) });
    } catch (error) {
      // A 403 or 402 is the query client's (sign-in, pricing).
      const text = failureText('Failed to switch Hold new senders', error, 'Please try again.');
      toasts.show(errorToast(text, () => void switchScreener(enabled), `screener:${account.email}`, error));
    }
  }

  return (
    <li className="list-group-item d-flex flex-wrap align-items-center gap-2 account-item">
      <div className="flex-grow-1 min-w-0">
        <div id={emailId} className="fw-semibold text-break">
          {account.email}
        </div>
        <div className="d-flex flex-wrap align-items-center gap-2 small text-muted">
          <span>{providerName(account.provider)}</span>
          {badge && (
            <Badge bg={badge.bg} text={badge.bg === 'warning' ? 'dark' : undefined}>
              {badge.label}
            </Badge>
          )}
        </div>
        {isTroubled(account) && <AccountProblem account={account} />}
        <Form.Check
          type="switch"
          role="switch"
          id={screenerId}
          className="mt-2 mb-0 account-screener"
          label={
            <>
              Hold new senders<span className="visually-hidden"> for {account.email}</span>
            </>
          }
          checked={screener.isPending ? (screener.variables?.enabled ?? account.screener) : account.screener}
          disabled={screener.isPending}
          aria-describedby={hintId}
          onChange={(e) => void switchScreener(e.target.checked)}
        />
        <div id={hintId} className="small text-muted account-screener-hint">
          {SCREENER_HINT}
        </div>
      </div>
      <div className="d-flex flex-wrap gap-2">
        {isTroubled(account) && <ProblemAction account={account} />}
        <Button variant="outline-danger" size="sm" onClick={onRemove} aria-describedby={emailId}>
          Remove
        </Button>
      </div>
    </li>
  );
}

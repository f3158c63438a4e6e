// /genie/rules: every sender's rule in words, with Edit (the Organise dialog) and its two removals, then
// the blocked senders with Unblock. A screen of its own chunk (app/routes.tsx), like every signed-in screen.
import { lazy, Suspense, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import type { SenderRuleRow } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { ErrorState } from '../../components/error-state';
import { Loading } from '../../components/loading';
import { PageHeader } from '../../components/page-header';
import { useSenderRules } from './api/sender-rules';
import { BlockedSenders } from './blocked-senders';
import { ruleInWords } from './rule-in-words';
import { type RuleTarget, senderOf, useRuleActions } from './use-rule-actions';
import './rules.css';

const OrganiseDialog = lazy(() => import('./organise-dialog'));

export default function Rules() {
  const rules = useSenderRules();
  const [editing, setEditing] = useState<RuleTarget | null>(null);
  const [dialogWanted, setDialogWanted] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const { remove, failed } = useRuleActions();

  function edit(row: SenderRuleRow) {
    setDialogWanted(true);
    setEditing(row);
  }

  async function removeRule(row: SenderRuleRow, restore: boolean) {
    setBusy(row.subscriptionId);
    try {
      await remove(row, restore);
    } catch (error) {
      failed(error, 'Failed to remove the rule. Please try again.');
    } finally {
      setBusy(null);
    }
  }

  const rows = rules.data ?? null;
  return (
    <section className="rules">
      <PageHeader title="Rules" />
      <p className="text-muted">
        What happens to each sender's mail as it arrives. Add a rule with Organise… in a sender's More menu in{' '}
        <Link to={SCREENS.subscriptions}>your subscriptions</Link>.
      </p>
      {rules.isError && !rows && (
        <ErrorState message="Failed to fetch the rules..." onRetry={() => void rules.refetch()} />
      )}
      {rules.isPending && <Loading label="Loading rules…" />}
      {rows?.length === 0 && (
        <p className="empty-state text-muted border rounded p-4 text-center">No rules yet.</p>
      )}
      {rows && rows.length > 0 && (
        <ul className="list-group rule-list">
          {rows.map((row) => (
            <RuleItem
              key={row.subscriptionId}
              row={row}
              busy={busy === row.subscriptionId}
              onEdit={() => edit(row)}
              onRemove={(restore) => void removeRule(row, restore)}
            />
          ))}
        </ul>
      )}
      <BlockedSenders />
      {dialogWanted && (
        <Suspense fallback={null}>
          <OrganiseDialog target={editing} onClose={() => setEditing(null)} />
        </Suspense>
      )}
    </section>
  );
}

function RuleItem({
  row,
  busy,
  onEdit,
  onRemove,
}: {
  row: SenderRuleRow;
  busy: boolean;
  onEdit: () => void;
  onRemove: (restore: boolean) => void;
}) {
  const nameId = useId();
  return (
    <li className="list-group-item d-flex flex-wrap align-items-center gap-2 rule-item" aria-busy={busy}>
      <div className="flex-grow-1 min-w-0">
        <div id={nameId} className="fw-semibold text-break">
          {senderOf(row)}
        </div>
        <div className="small text-muted text-break">
          {row.address} · {row.account}
        </div>
        <div className="small text-primary text-break rule-words">{ruleInWords(row.rule)}</div>
      </div>
      <div className="d-flex flex-wrap gap-2">
        <Button
          variant="outline-primary"
          size="sm"
          disabled={busy}
          onClick={onEdit}
          aria-describedby={nameId}
        >
          Edit
        </Button>
        <Button
          variant="outline-danger"
          size="sm"
          disabled={busy}
          onClick={() => onRemove(false)}
          aria-describedby={nameId}
        >
          Remove rule
        </Button>
        <Button
          variant="outline-danger"
          size="sm"
          disabled={busy}
          onClick={() => onRemove(true)}
          aria-describedby={nameId}
        >
          Remove rule and put mail back
        </Button>
      </div>
    </li>
  );
}

// One sender under "Quieter since": its mail before and since the action (or how long until that is known),
// and Block for a sender still sending (the list's own call; a 409 asks the same question as the list).
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { InsightsQuieterSender } from '#contract/api.js';
import { STILL_SENDING_AFTER_DAYS } from '#contract/api.js';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useToasts } from '../../components/toasts';
import { ApiError, messageOf } from '../../lib/api-client';
import { USER_KEY } from '../../lib/query-keys';
import { blockSubscription, unblockSubscription } from '../subscriptions';
import { formatCount, inDays } from './summaries';

const actedDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

export function QuieterItem({ sender }: { sender: InsightsQuieterSender }) {
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);
  const [question, setQuestion] = useState<string | null>(null);
  const name = sender.name || sender.address;
  const verb = sender.blocked ? 'blocking' : 'unsubscribing';
  const acted = actedDate.format(new Date(sender.actedAt));
  const messagesSince = `${formatCount(sender.messagesSince)} ${sender.messagesSince === 1 ? 'message' : 'messages'}`;
  const refresh = () => queryClient.invalidateQueries({ queryKey: USER_KEY });

  async function block(confirmBlock = false) {
    setBusy(true);
    try {
      await blockSubscription(sender.id, { confirmBlock });
      setQuestion(null);
      await refresh();
      toasts.show({
        text: `Blocked ${name}: its mail goes to the trash.`,
        action: {
          label: 'Undo',
          run: () =>
            void unblockSubscription(sender.id)
              .then(refresh)
              .catch((error) => toasts.show({ text: messageOf(error, 'Failed to undo the block.') })),
        },
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && error.details.confirmBlock) {
        setQuestion(messageOf(error, 'Blocking also trashes mail of this sender without list headers.'));
      } else {
        setQuestion(null);
        toasts.show({ text: messageOf(error, `Failed to block ${name}. Please try again.`) });
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="list-group-item d-flex flex-wrap align-items-center gap-2" aria-busy={busy}>
      <div className="flex-grow-1 min-w-0">
        <div className="fw-semibold text-break">
          {name}
          {sender.stillSending && <span className="badge text-bg-warning ms-2">Still sending</span>}
          {sender.blocked && <span className="badge text-bg-secondary ms-2">Blocked</span>}
        </div>
        <div className="small text-muted text-break">{sender.address}</div>
        <div className="small">
          {sender.perMonthSince === null ? (
            // Too soon for a figure (the server's threshold): say when it will be known instead.
            <>
              {formatCount(sender.perMonthBefore)} a month before {verb} on {acted}. We'll know{' '}
              {inDays(sender.knownInDays)} whether it stopped ({messagesSince} since so far).
            </>
          ) : (
            <>
              {formatCount(sender.perMonthBefore)} a month before, {formatCount(sender.perMonthSince)} since (
              {messagesSince} since {verb} on {acted})
            </>
          )}
        </div>
      </div>
      {sender.stillSending && !sender.blocked && (
        <Button
          variant="outline-danger"
          size="sm"
          disabled={busy}
          onClick={() => void block()}
          aria-label={`Block ${name}`}
          title={`It still sends more than ${STILL_SENDING_AFTER_DAYS} days after you unsubscribed`}
        >
          Block
        </Button>
      )}
      <ConfirmDialog
        show={question !== null}
        title={`Block ${name}?`}
        confirmLabel="Block"
        danger
        busy={busy}
        onConfirm={() => void block(true)}
        onCancel={() => setQuestion(null)}
      >
        {question}
      </ConfirmDialog>
    </li>
  );
}
